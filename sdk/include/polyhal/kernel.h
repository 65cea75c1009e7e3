/*
 * Polyhal ABI 1.14 (1.1-1.14) -- the kernel IR (KIR): what the core hands a
 * plugin to turn into device code. ABI 1.2 appended node ops (the block
 * marked "ABI 1.2" below); the core never hands a kernel using them to a
 * plugin that negotiated ABI 1.1. ABI 1.3 to 1.5 changed nothing here. ABI
 * 1.6 appended the kernel kind FFT (the blocks marked "ABI 1.6"); the core
 * hands an FFT kernel only to a device that reports the kind through a
 * plugin that negotiated ABI 1.6 or later. ABI 1.7 to 1.13 changed nothing
 * here. ABI 1.14 appended the kernel kind LINALG (the blocks marked "ABI
 * 1.14"), handed only to a device that reports it through a plugin that
 * negotiated ABI 1.14 or later.
 *
 * The core lowers an HLO module to row-major layouts and partitions it into
 * kernels of a few kinds (loop, reduce, dot, conv, gather, scatter, sort,
 * copy, fft, linalg). Each kernel reads and writes dense row-major buffers,
 * bound at launch in the order of phal_kernel_desc_t::buffers. Control flow
 * (while, conditional, call) never reaches a plugin: the core's executor runs
 * it on the host and launches kernels.
 *
 * Scalar computations are bodies: arrays of nodes in topological order
 * (every operand index is smaller than the node's own index), each node an
 * operation over earlier nodes. Index computations are ordinary s64 nodes,
 * so a body says exactly which element of which buffer it reads: broadcast,
 * transpose, reshape, slice, pad, reverse, concatenate, iota and
 * dynamic-slice are all expressed as index arithmetic feeding READ nodes,
 * never as kernels of their own.
 *
 * KIR says nothing about threads, blocks or vector widths: the plugin maps
 * the iteration space to its hardware as it likes, provided the result is
 * the one the node semantics below define (which are those of the StableHLO
 * operation of the same name).
 *
 * Ownership: every pointer in a kernel description is owned by the core and
 * valid only during the call that receives it; a plugin copies what it keeps.
 *
 * docs/kernel-ir.md documents every node and kind, and the stable text dump.
 */
#ifndef POLYHAL_KERNEL_H_
#define POLYHAL_KERNEL_H_

#include "polyhal/types.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Operations of body nodes. Values are part of the ABI. Unless written
 * otherwise, operands and the result have the node's element type, and the
 * semantics are those of the StableHLO op of the same name. */
typedef enum phal_kir_op {
  PHAL_KIR_OP_INVALID = 0,

  /* -- leaves -------------------------------------------------------------- */
  /* The value in phal_kir_node_t::constant. */
  PHAL_KIR_OP_CONSTANT = 1,
  /* s64: the iteration index along dimension attributes[0] of the body's
   * iteration space. */
  PHAL_KIR_OP_INDEX = 2,
  /* The element of buffer attributes[0] at the position given by the
   * operands, one s64 per buffer dimension (none for a rank-0 buffer). The
   * core guarantees every index is in bounds at every iteration point,
   * whichever way the body's selects go, so a plugin may evaluate both sides
   * of a select (the core clamps indices a select would discard). */
  PHAL_KIR_OP_READ = 3,
  /* Parameter attributes[0] of a body that takes parameters (a reducer,
   * comparator, combiner, or an epilogue's incoming value). */
  PHAL_KIR_OP_PARAMETER = 4,

  /* -- unary --------------------------------------------------------------- */
  PHAL_KIR_OP_ABS = 16, /* complex operand: f32/f64 result */
  PHAL_KIR_OP_NEGATE = 17,
  PHAL_KIR_OP_SIGN = 18,
  PHAL_KIR_OP_FLOOR = 19,
  PHAL_KIR_OP_CEIL = 20,
  PHAL_KIR_OP_ROUND_NEAREST_AFZ = 21,
  PHAL_KIR_OP_ROUND_NEAREST_EVEN = 22,
  PHAL_KIR_OP_EXP = 23,
  PHAL_KIR_OP_EXPM1 = 24,
  PHAL_KIR_OP_LOG = 25,
  PHAL_KIR_OP_LOG1P = 26,
  PHAL_KIR_OP_LOGISTIC = 27,
  PHAL_KIR_OP_SQRT = 28,
  PHAL_KIR_OP_RSQRT = 29,
  PHAL_KIR_OP_CBRT = 30,
  PHAL_KIR_OP_TANH = 31,
  PHAL_KIR_OP_SIN = 32,
  PHAL_KIR_OP_COS = 33,
  PHAL_KIR_OP_TAN = 34,
  PHAL_KIR_OP_NOT = 35,
  PHAL_KIR_OP_POPCNT = 36,
  PHAL_KIR_OP_CLZ = 37,
  PHAL_KIR_OP_IS_FINITE = 38, /* pred result */
  PHAL_KIR_OP_REAL = 39,      /* complex operand, f32/f64 result */
  PHAL_KIR_OP_IMAG = 40,
  /* Converts the operand's element type to the node's (StableHLO convert). */
  PHAL_KIR_OP_CONVERT = 41,
  /* Reinterprets the bits of an operand of equal width. */
  PHAL_KIR_OP_BITCAST_CONVERT = 42,
  /* attributes[0] exponent bits, attributes[1] mantissa bits. */
  PHAL_KIR_OP_REDUCE_PRECISION = 43,

  /* -- binary -------------------------------------------------------------- */
  PHAL_KIR_OP_ADD = 64,
  PHAL_KIR_OP_SUBTRACT = 65,
  PHAL_KIR_OP_MULTIPLY = 66,
  PHAL_KIR_OP_DIVIDE = 67,
  PHAL_KIR_OP_REMAINDER = 68,
  PHAL_KIR_OP_MAXIMUM = 69,
  PHAL_KIR_OP_MINIMUM = 70,
  PHAL_KIR_OP_POWER = 71,
  PHAL_KIR_OP_ATAN2 = 72,
  PHAL_KIR_OP_AND = 73,
  PHAL_KIR_OP_OR = 74,
  PHAL_KIR_OP_XOR = 75,
  PHAL_KIR_OP_SHIFT_LEFT = 76,
  PHAL_KIR_OP_SHIFT_RIGHT_ARITHMETIC = 77,
  PHAL_KIR_OP_SHIFT_RIGHT_LOGICAL = 78,
  PHAL_KIR_OP_COMPLEX = 79, /* f32/f64 operands (real, imag), complex result */
  /* pred result; attributes[0] phal_kir_comparison_direction_t,
   * attributes[1] phal_kir_comparison_type_t. */
  PHAL_KIR_OP_COMPARE = 80,

  /* -- ternary ------------------------------------------------------------- */
  PHAL_KIR_OP_SELECT = 96, /* (pred, on_true, on_false) */
  PHAL_KIR_OP_CLAMP = 97,  /* (min, operand, max) */

  /* -- ABI 1.2 ------------------------------------------------------------- */
  /* Unary: the Gauss error function, 2/sqrt(pi) * integral_0^x exp(-t^2). */
  PHAL_KIR_OP_ERF = 44
} phal_kir_op_t;

typedef enum phal_kir_comparison_direction {
  PHAL_KIR_COMPARE_EQ = 0,
  PHAL_KIR_COMPARE_NE = 1,
  PHAL_KIR_COMPARE_LT = 2,
  PHAL_KIR_COMPARE_LE = 3,
  PHAL_KIR_COMPARE_GT = 4,
  PHAL_KIR_COMPARE_GE = 5
} phal_kir_comparison_direction_t;

typedef enum phal_kir_comparison_type {
  PHAL_KIR_COMPARISON_FLOAT = 0,      /* IEEE: NaN compares unordered */
  PHAL_KIR_COMPARISON_TOTALORDER = 1, /* -NaN < -inf < ... < inf < NaN */
  PHAL_KIR_COMPARISON_SIGNED = 2,
  PHAL_KIR_COMPARISON_UNSIGNED = 3
} phal_kir_comparison_type_t;

/* One node of a body. 64 bytes. */
typedef struct phal_kir_node {
  phal_kir_op_t op;
  phal_element_type_t type; /* element type of the result */
  uint32_t operand_begin;   /* first operand in phal_kir_body_t::operands */
  uint32_t operand_count;
  int64_t attributes[4]; /* per op, as documented above; unused are 0 */
  /* CONSTANT: the value's bytes, little-endian, in the element type's
   * storage (pred: 0 or 1 in the first byte; c128 fills both words). */
  uint64_t constant[2];
} phal_kir_node_t;

/* A scalar computation. `results` name the nodes whose values the body
 * produces, in the order the kernel kind documents. */
typedef struct phal_kir_body {
  const phal_kir_node_t* nodes;
  uint32_t node_count;
  uint32_t operand_count;
  const uint32_t* operands; /* node indices, referenced by node ranges */
  const uint32_t* results;  /* node indices */
  uint32_t result_count;
  uint32_t parameter_count; /* PARAMETER nodes take 0..parameter_count-1 */
} phal_kir_body_t;

/* How a kernel uses one of its buffers. */
typedef enum phal_kir_access {
  PHAL_KIR_ACCESS_READ = 1,
  PHAL_KIR_ACCESS_WRITE = 2,
  PHAL_KIR_ACCESS_READ_WRITE = 3
} phal_kir_access_t;

/* A dense row-major buffer the kernel reads or writes. */
typedef struct phal_kir_buffer {
  phal_element_type_t element_type;
  phal_kir_access_t access;
  uint32_t rank;
  uint32_t reserved; /* 0 */
  const int64_t* dims;
} phal_kir_buffer_t;

typedef enum phal_kernel_kind {
  PHAL_KERNEL_KIND_LOOP = 1,
  PHAL_KERNEL_KIND_REDUCE = 2,
  PHAL_KERNEL_KIND_DOT = 3,
  PHAL_KERNEL_KIND_CONV = 4,
  PHAL_KERNEL_KIND_GATHER = 5,
  PHAL_KERNEL_KIND_SCATTER = 6,
  PHAL_KERNEL_KIND_SORT = 7,
  PHAL_KERNEL_KIND_COPY = 8,
  /* -- ABI 1.6 ------------------------------------------------------------- */
  PHAL_KERNEL_KIND_FFT = 9,
  /* -- ABI 1.14 ------------------------------------------------------------ */
  PHAL_KERNEL_KIND_LINALG = 10
} phal_kernel_kind_t;

/* Bit of a kernel kind in phal_device_properties_t::kernel_kinds. */
#define PHAL_KERNEL_KIND_BIT(kind) ((uint64_t)1 << (uint32_t)(kind))

/*
 * LOOP: for every index of the iteration space `dims`, evaluates `body`
 * (INDEX d is the index along dimension d) and writes result i to buffer
 * outputs[i] at that index. Every output has the iteration space's shape.
 * Iterations are independent and may run in any order or in parallel.
 */
typedef struct phal_kir_loop {
  uint32_t rank;
  uint32_t output_count;
  const int64_t* dims;
  const uint32_t* outputs; /* buffer index per body result */
  phal_kir_body_t body;
} phal_kir_loop_t;

/*
 * REDUCE: `accumulator_count` (N) variadic reductions over the dimensions
 * `reduced_dims` of the iteration space `dims`.
 *   init:     no INDEX nodes; results: N initial values.
 *   values:   over the iteration space; results: N values per point.
 *   reducer:  parameters 0..N-1 the accumulators, N..2N-1 the values;
 *             results: the N new accumulators. Applied in an unspecified
 *             order and association (as StableHLO allows).
 *   epilogue: over the output space (the dimensions not reduced, in order);
 *             parameters 0..N-1 are the reduced values; results: one per
 *             output, written to buffer outputs[i] at the output index.
 */
typedef struct phal_kir_reduce {
  uint32_t rank;
  uint32_t reduced_count;
  const int64_t* dims;
  const int64_t* reduced_dims; /* ascending */
  uint32_t accumulator_count;
  uint32_t output_count;
  const uint32_t* outputs;
  phal_kir_body_t init;
  phal_kir_body_t values;
  phal_kir_body_t reducer;
  phal_kir_body_t epilogue;
} phal_kir_reduce_t;

/*
 * DOT: C[b, m, n] = sum_k A[b, m, k] * B[b, k, n], for b < batch, m < m,
 * n < n, k < k. A and B are read from buffers lhs and rhs at element offsets
 * b*stride[0] + m*stride[1] + k*stride[2] (lhs) and b*stride[0] +
 * k*stride[1] + n*stride[2] (rhs), converted to `accumulation_type`, and
 * multiplied and summed in that type (in any order). The epilogue runs over
 * [batch, m, n] with parameter 0 the sum; its one result (exactly one) is
 * written to
 * buffer `output` (shape [batch, m, n] row-major, of the result's type).
 */
typedef struct phal_kir_dot {
  uint32_t lhs;
  uint32_t rhs;
  uint32_t output;
  phal_element_type_t accumulation_type;
  int64_t batch;
  int64_t m;
  int64_t n;
  int64_t k;
  int64_t lhs_strides[3];
  int64_t rhs_strides[3];
  phal_kir_body_t epilogue;
} phal_kir_dot_t;

/*
 * CONV: StableHLO convolution with its dimension numbers, over buffers
 * input, kernel and output. Spatial arrays have spatial_count entries;
 * padding is [low, high] per spatial dimension. Products are accumulated in
 * `accumulation_type`; the epilogue (parameter 0 the sum, over the output
 * shape) produces the stored value as its one result (exactly one).
 */
typedef struct phal_kir_conv {
  uint32_t input;
  uint32_t kernel;
  uint32_t output;
  uint32_t spatial_count;
  phal_element_type_t accumulation_type;
  uint32_t reserved; /* 0 */
  int64_t input_batch_dimension;
  int64_t input_feature_dimension;
  const int64_t* input_spatial_dimensions;
  int64_t kernel_input_feature_dimension;
  int64_t kernel_output_feature_dimension;
  const int64_t* kernel_spatial_dimensions;
  int64_t output_batch_dimension;
  int64_t output_feature_dimension;
  const int64_t* output_spatial_dimensions;
  const int64_t* window_strides;
  const int64_t* padding; /* 2 * spatial_count: low, high */
  const int64_t* lhs_dilation;
  const int64_t* rhs_dilation;
  const uint8_t* window_reversal; /* 0 or 1 per spatial dimension */
  int64_t feature_group_count;
  int64_t batch_group_count;
  phal_kir_body_t epilogue;
} phal_kir_conv_t;

/*
 * GATHER: StableHLO gather of buffer `operand` at `start_indices` (an
 * integer buffer) into `output`. Out-of-bounds starts are clamped, as the
 * specification says.
 */
typedef struct phal_kir_gather {
  uint32_t operand;
  uint32_t start_indices;
  uint32_t output;
  uint32_t offset_dims_count;
  const int64_t* offset_dims;
  uint32_t collapsed_slice_dims_count;
  uint32_t start_index_map_count;
  const int64_t* collapsed_slice_dims;
  const int64_t* start_index_map;
  uint32_t operand_batching_dims_count;
  uint32_t start_indices_batching_dims_count;
  const int64_t* operand_batching_dims;
  const int64_t* start_indices_batching_dims;
  int64_t index_vector_dim;
  const int64_t* slice_sizes; /* one per operand dimension */
} phal_kir_gather_t;

/*
 * SCATTER: StableHLO scatter. `output` starts as a copy of `operand` (the
 * core may bind the same buffer to both, with READ_WRITE access); update
 * elements whose result index falls outside the operand are skipped, one by
 * one, as the StableHLO specification says. The combiner body takes
 * parameter 0 the current value and 1 the update and yields the new value.
 * Updates to one element are applied in an unspecified order unless
 * `unique_indices` is set.
 */
typedef struct phal_kir_scatter {
  uint32_t operand;
  uint32_t scatter_indices;
  uint32_t updates;
  uint32_t output;
  uint32_t update_window_dims_count;
  uint32_t inserted_window_dims_count;
  const int64_t* update_window_dims;
  const int64_t* inserted_window_dims;
  uint32_t scatter_dims_to_operand_dims_count;
  uint32_t input_batching_dims_count;
  const int64_t* scatter_dims_to_operand_dims;
  const int64_t* input_batching_dims;
  uint32_t scatter_indices_batching_dims_count;
  uint32_t unique_indices; /* 0 or 1 */
  const int64_t* scatter_indices_batching_dims;
  int64_t index_vector_dim;
  phal_kir_body_t combiner;
} phal_kir_scatter_t;

/*
 * SORT: sorts `operand_count` buffers of one shape along `dimension`,
 * permuting all of them alike; results go to the buffers in `outputs`. The
 * comparator takes parameters 2i (left) and 2i+1 (right) for operand i and
 * yields a pred: true when left sorts before right.
 */
typedef struct phal_kir_sort {
  uint32_t operand_count;
  uint32_t is_stable; /* 0 or 1 */
  const uint32_t* operands;
  const uint32_t* outputs;
  int64_t dimension;
  phal_kir_body_t comparator;
} phal_kir_sort_t;

/* COPY: copies buffer `source` into buffer `destination` (same byte size). */
typedef struct phal_kir_copy {
  uint32_t source;
  uint32_t destination;
} phal_kir_copy_t;

/* -- ABI 1.6 --------------------------------------------------------------- */

/* The discrete Fourier transform an FFT kernel computes: StableHLO's
 * fft_type, with StableHLO's numbering. */
typedef enum phal_kir_fft_type {
  /* complex to complex: X[k] = sum_j x[j] exp(-2 pi i j k / n) */
  PHAL_KIR_FFT_TYPE_FFT = 0,
  /* complex to complex: the sign of the exponent flipped, divided by n */
  PHAL_KIR_FFT_TYPE_IFFT = 1,
  /* real to complex: FFT of the real input, the last transformed dimension
   * keeping its n/2+1 non-negative frequencies */
  PHAL_KIR_FFT_TYPE_RFFT = 2,
  /* complex to real: the inverse of RFFT */
  PHAL_KIR_FFT_TYPE_IRFFT = 3
} phal_kir_fft_type_t;

/*
 * FFT (ABI 1.6): StableHLO fft of buffer `input` into buffer `output` over
 * their trailing `fft_rank` (1 to 3) dimensions, of lengths `fft_length`;
 * the dimensions before them are a batch of independent transforms, the
 * same in both buffers. With n... the lengths and n' all but the last:
 *   FFT, IFFT: input and output of one complex type (c64 or c128), dims
 *              [batch..., n...]; IFFT divides by each length.
 *   RFFT:      input f32 or f64 [batch..., n...]; output c64 or c128 (the
 *              input's precision) [batch..., n', n_last/2+1].
 *   IRFFT:     input c64 or c128 [batch..., n', n_last/2+1]; output f32 or
 *              f64 (the input's precision) [batch..., n...]: the input
 *              extended to n_last by Hermitian symmetry (X[n-k] =
 *              conj(X[k])) and transformed back, dividing by each length,
 *              so the imaginary parts of X[0] and, for even n_last,
 *              X[n_last/2] do not count.
 * Forward transforms go from the innermost dimension out, inverse ones
 * from the outermost in, as the specification orders them; the order only
 * changes rounding. A length may be 0 (the buffers are then empty). The
 * output never overlaps the input.
 */
typedef struct phal_kir_fft {
  phal_kir_fft_type_t fft_type;
  uint32_t input;
  uint32_t output;
  uint32_t fft_rank;
  const int64_t* fft_length; /* fft_rank lengths, outermost first */
} phal_kir_fft_t;

/* -- ABI 1.14 -------------------------------------------------------------- */

/* The operation a LINALG kernel computes: the HLO op of the same name. */
typedef enum phal_kir_linalg_op {
  PHAL_KIR_LINALG_CHOLESKY = 0,
  PHAL_KIR_LINALG_TRIANGULAR_SOLVE = 1,
  PHAL_KIR_LINALG_LU = 2,
  PHAL_KIR_LINALG_QR = 3,
  PHAL_KIR_LINALG_HOUSEHOLDER_PRODUCT = 4,
  PHAL_KIR_LINALG_EIGH = 5,
  PHAL_KIR_LINALG_SVD = 6
} phal_kir_linalg_op_t;

/* triangular-solve's op(a): a, its transpose, or its conjugate transpose. */
typedef enum phal_kir_transpose {
  PHAL_KIR_TRANSPOSE_NONE = 0,
  PHAL_KIR_TRANSPOSE_TRANSPOSE = 1,
  PHAL_KIR_TRANSPOSE_ADJOINT = 2
} phal_kir_transpose_t;

/* Bits of phal_kir_linalg_t::flags. */
/* cholesky, triangular-solve, eigh: the lower triangle of a holds the
 * matrix (cholesky's factor is lower-triangular); otherwise the upper. */
#define PHAL_KIR_LINALG_LOWER ((uint32_t)1 << 0)
/* triangular-solve: op(a) x = b; otherwise x op(a) = b. */
#define PHAL_KIR_LINALG_LEFT_SIDE ((uint32_t)1 << 1)
/* triangular-solve: a's diagonal is ones and is not read. */
#define PHAL_KIR_LINALG_UNIT_DIAGONAL ((uint32_t)1 << 2)
/* svd: u [.., m, m] and vt [.., n, n]; otherwise [.., m, k], [.., k, n]. */
#define PHAL_KIR_LINALG_FULL_MATRICES ((uint32_t)1 << 3)

/*
 * LINALG (ABI 1.14): one linear-algebra op over a batch of matrices. Every
 * buffer is [batch..., rows, columns] (a vector result [batch..., count])
 * with the same leading batch dimensions; each matrix of the batch is
 * independent. Element types: f32, f64, c64 or c128, one for every
 * operand and matrix result (eigenvalues and singular values are the real
 * type of that precision, pivots s32). With a [.., m, n] and k = min(m, n):
 *   CHOLESKY             (a) -> (l): a square and Hermitian, read from the
 *                        LOWER triangle (or the upper); the factor with
 *                        a = l l^H (or u^H u), the other triangle zero.
 *                        Where a pivot is not positive (or NaN) the
 *                        factor's columns from that one on are NaN.
 *   TRIANGULAR_SOLVE     (a, b) -> (x): a square, triangular (LOWER or
 *                        upper; UNIT_DIAGONAL), op(a) by transpose_a;
 *                        x op(a) = b, or op(a) x = b with LEFT_SIDE.
 *   LU                   (a) -> (lu, pivots): partial pivoting as LAPACK's
 *                        getrf; unit-lower l below the diagonal, u on and
 *                        above; pivots [.., k] the 0-based row swapped with
 *                        each step's.
 *   QR                   (a) -> (qr, taus): Householder as LAPACK's geqrf;
 *                        r on and above the diagonal, the reflectors below;
 *                        taus [.., k].
 *   HOUSEHOLDER_PRODUCT  (a, taus) -> (q): LAPACK's orgqr: the product of
 *                        the reflectors of a [.., m, n] and taus [.., t]
 *                        (m >= n >= t), its first n columns.
 *   EIGH                 (a) -> (vectors, values): a square Hermitian read
 *                        from one triangle; values [.., n] ascending, the
 *                        eigenvectors the columns of vectors [.., n, n],
 *                        each scaled so that its entry of largest
 *                        magnitude (the first of equals) is real positive.
 *   SVD                  (a) -> (u, s, vt): s [.., k] descending; a = u s vt
 *                        with each row of vt scaled as EIGH's vectors are;
 *                        u's columns past the first k (FULL_MATRICES) the
 *                        reference's orthonormal completion.
 * docs/kernel-ir.md gives each op's exact conventions (those of the
 * reference interpreter); results agree with it to rounding. Operands and
 * results are distinct buffers. A dimension may be 0.
 */
typedef struct phal_kir_linalg {
  phal_kir_linalg_op_t op;
  uint32_t flags;                   /* PHAL_KIR_LINALG_* bits */
  phal_kir_transpose_t transpose_a; /* TRIANGULAR_SOLVE; NONE otherwise */
  uint32_t operand_count;           /* 2: TRIANGULAR_SOLVE, HOUSEHOLDER_... */
  uint32_t operands[2];             /* buffers; unused entries 0 */
  uint32_t result_count;            /* 1, 2 (LU, QR, EIGH) or 3 (SVD) */
  uint32_t results[3];              /* buffers; unused entries 0 */
} phal_kir_linalg_t;

/*
 * A kernel: its buffers and its kind's description. Exactly the member of
 * the union matching `kind` is meaningful.
 */
typedef struct phal_kernel_desc {
  uint32_t struct_size;
  const void* next;
  const char* name; /* unique within a module; for logs and dumps */
  phal_kernel_kind_t kind;
  uint32_t buffer_count;
  const phal_kir_buffer_t* buffers;
  union {
    const phal_kir_loop_t* loop;
    const phal_kir_reduce_t* reduce;
    const phal_kir_dot_t* dot;
    const phal_kir_conv_t* conv;
    const phal_kir_gather_t* gather;
    const phal_kir_scatter_t* scatter;
    const phal_kir_sort_t* sort;
    const phal_kir_copy_t* copy;
    const phal_kir_fft_t* fft;       /* ABI 1.6 */
    const phal_kir_linalg_t* linalg; /* ABI 1.14 */
  } u;
} phal_kernel_desc_t;

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* POLYHAL_KERNEL_H_ */
