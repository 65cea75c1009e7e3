// Polyhal's portable math library in GLSL 4.50 (double precision), written
// in the common subset of GLSL and C++ so that the host tests call the very
// same text (glsl_math_shim.h defines the GLSL builtins in C++). Vulkan has
// no f64 transcendental builtins and loosely specified f32 ones; these
// functions meet the conformance suite's bounds (4 ulp, 8 for pow) with
// room to spare, and C99 Annex F's special values (glibc's results).
//
// Requirements on the device and the dialect: #version 450 and
// GL_EXT_shader_explicit_arithmetic_types_int64 (uint64_t, int64_t and the
// double <-> 64-bit bit casts) and correctly rounded double add, subtract,
// multiply and divide. fma() may be fused or not (Vulkan allows both; Mesa's
// lavapipe does not fuse): it only evaluates polynomials, and exact products
// are Dekker's. Double sqrt may be inexact: phal_m_sqrt_f64 corrects it.
// Every intermediate whose rounding matters is `precise` (no contraction).
// Without f64 denormals preserved (shaderDenormPreserveFloat64; lavapipe
// flushes), subnormal inputs read as zero and subnormal results flush.
//
// Subset rules: constants are PHAL_D(bits, value), the double of those bits
// (GLSL's preprocessor cannot paste an `lf` suffix onto a literal), with its
// value in decimal for the reader; out parameters are PHAL_OUT(type); casts
// are constructor calls; no recursion, pointers or vectors; only unsigned
// integers overflow. No tables: Mesa's lavapipe (llvmpipe) materialises a
// dynamically indexed constant array at every access, which made a shader
// calling log take 10-18 s to compile and one calling erf 3 minutes;
// constants picked by a run-time index come from switch statements, and
// every function compiles in about 0.1 s there (PHAL_TABLE_BEGIN and
// PHAL_TABLE_END stay defined, unused). The macros are defined by the first
// block below when the shim has not defined them.
//
// Blocks: each function follows a comment line starting
// "phal-block:" that names it and the blocks it uses; its text runs to the
// next such line. GlslMathFunctions() (glsl_math.h) returns the blocks a set
// of functions needs, in dependency order.
//
// Algorithms (dd: double-double, an unevaluated sum of two doubles):
//   exp      Cody-Waite by ln2 (42-bit head), Taylor to degree 13 on
//            |r| <= ln2/2, 1 + r added in dd, scaled by 2^k in at most
//            three exact steps so subnormal results round once.
//   expm1    the same reduction; 2^k - 1 + 2^k r + 2^k tail summed in dd;
//            exp(x) - 1 beyond [-37, 40].
//   log      x == 2^e m, m in [sqrt(1/2), sqrt(2)), s == (m-1)/(m+1) in dd
//            (|s| <= 0.1716), log(m) == 2 atanh(s) by its series to degree
//            27 (2s, 2s^3/3, 2s^5/5 and the products in dd, the rest in
//            double), plus e ln2 in dd; the result in dd (relative error
//            < 2^-68; 2^-68.6 measured against mpmath).
//   log1p    |x| < 2^-7: the series directly; else log of 1 + x in dd.
//   sin cos  Cody-Waite by pi/2 (three doubles) below 2^30, Payne-Hanek
//   tan      (192 bits of 2/pi out of 1216, words from a switch, 64-bit
//            integer products) above; Taylor to degree 19/18 on |r| <=
//            pi/4 in dd; tan as a dd quotient.
//   sinh     |x| < 1: Taylor to degree 19; else (e^x - e^-x)/2 in dd.
//   cosh     (e^x + e^-x)/2 in dd.
//   tanh     expm1(2|x|) / (expm1(2|x|) + 2) in dd; x below 2^-27; +-1
//            beyond 22.
//   atan     atan(j/16) (a switch) plus atan((x - c)/(1 + c x)) (|u| <=
//   atan2    1/32, Taylor to degree 15), reflected through pi/2 and pi in
//            dd; atan2 scales its operands near 1 first.
//   erf      |x| < 1/4: Maclaurin to degree 19; below 6: Taylor to degree
//            17 around 23 centers c 1/4 apart (|x - c| <= 1/8): erf(c) and
//            erf'(c) in dd from a switch, the higher coefficients by the
//            recurrence of erf'' == -2x erf'; then +-1. Within 0.553 ulp
//            on 10^6 points of [1/4, 1/2], 0.528 above.
//   cbrt     Newton's iteration on the significand times 2^(e mod 3), a
//            last step on the exactly computed residual.
//   sqrt     the builtin, a Newton step, then the rounding decided exactly
//            from the fma residual x - y^2 (correctly rounded).
//   hypot    sqrt of the dd sum of squares after scaling near 1, with a
//            dd correction step.
//   pow      exp(y log|x|) with log in dd and y log|x| in dd.
// Constants: exact Taylor coefficients or values computed to 400 bits or
// more (mpmath), rounded to double or double-double.
//
// Measured bounds (GlslMath* tests on the host: 2^18 random inputs per
// function over its whole domain plus the edge values, errors in ulp of the
// result against glibc's long double functions; worst of two seeds), with
// the bound the tests enforce. Run on Mesa's lavapipe (fma unfused,
// denormals flushed), 2^16 inputs measured within 0.87 ulp for results in
// the normal range. f32: not provided yet; compute f32 in f64 and round
// once.
//
//   function   f64 measured (bound)
//   exp        0.746 (1)    subnormal results round twice
//   expm1      0.799 (1)
//   log        0.500 (1)
//   log1p      0.500 (1)
//   sin        0.743 (1)
//   cos        0.710 (1)
//   tan        0.822 (1)
//   tanh       0.673 (1)
//   sinh       0.747 (1)
//   cosh       0.599 (1)
//   atan       0.500 (1)
//   erf        0.539 (1)    subnormal results round twice (0.75)
//   cbrt       0.500 (1)
//   sqrt       0.500 (0.5)  correctly rounded
//   atan2      0.501 (1)
//   pow        0.740 (1)
//   hypot      0.746 (1)

// phal-block: phal_m_macros
#ifndef PHAL_D
#define PHAL_D(bits, value) uint64BitsToDouble(bits)
#define PHAL_OUT(type) out type
#define PHAL_TABLE_BEGIN(type, name, size) const type name[size] = type[size](
#define PHAL_TABLE_END );
#endif

// phal-block: phal_m_two_sum_f64 phal_m_macros
// s + e == a + b exactly, s the rounded sum.
void phal_m_two_sum_f64(double a, double b, PHAL_OUT(double) s,
                        PHAL_OUT(double) e) {
  precise double t = a + b;
  precise double bv = t - a;
  precise double av = t - bv;
  precise double err = (a - av) + (b - bv);
  s = t;
  e = err;
}

// phal-block: phal_m_fast_two_sum_f64 phal_m_macros
// s + e == a + b exactly when |a| >= |b| (or a == 0).
void phal_m_fast_two_sum_f64(double a, double b, PHAL_OUT(double) s,
                             PHAL_OUT(double) e) {
  precise double t = a + b;
  precise double err = b - (t - a);
  s = t;
  e = err;
}

// phal-block: phal_m_split_f64 phal_m_macros
// h + l == a with h holding the high 26 bits (Veltkamp's splitting), for
// |a| <= 2^996.
void phal_m_split_f64(double a, PHAL_OUT(double) h, PHAL_OUT(double) l) {
  precise double c = PHAL_D(0x41A0000002000000UL, 134217729.0) * a;
  precise double hi = c - (c - a);
  precise double lo = a - hi;
  h = hi;
  l = lo;
}

// phal-block: phal_m_two_prod_f64 phal_m_macros phal_m_split_f64
// p + e == a * b exactly (barring underflow), p the rounded product, for
// finite a and b and finite p. Dekker's product (Vulkan's fma() need not be
// fused), on operands scaled by 2^-28 above 2^996 so the splitting cannot
// overflow.
void phal_m_two_prod_f64(double a, double b, PHAL_OUT(double) p,
                         PHAL_OUT(double) e) {
  const double big = PHAL_D(0x7E30000000000000UL, 6.6969287949141708e+299);
  const double down = PHAL_D(0x3E30000000000000UL, 3.7252902984619141e-09);
  const double up = PHAL_D(0x41B0000000000000UL, 268435456.0);
  precise double t = a * b;
  precise double a2 = a;
  precise double b2 = b;
  precise double scale = 1.0;
  if (abs(a) > big) {
    a2 = a * down;
    scale = up;
  }
  if (abs(b) > big) {
    b2 = b * down;
    scale = scale * up;
  }
  precise double t2 = a2 * b2;
  precise double ah;
  precise double al;
  precise double bh;
  precise double bl;
  phal_m_split_f64(a2, ah, al);
  phal_m_split_f64(b2, bh, bl);
  precise double err = (((ah * bh - t2) + ah * bl) + al * bh) + al * bl;
  p = t;
  e = err * scale;
}

// phal-block: phal_m_nan_f64 phal_m_macros
double phal_m_nan_f64() { return uint64BitsToDouble(0x7FF8000000000000UL); }

// phal-block: phal_m_inf_f64 phal_m_macros
double phal_m_inf_f64() { return uint64BitsToDouble(0x7FF0000000000000UL); }

// phal-block: phal_m_pow2_f64 phal_m_macros
// 2^n for -1022 <= n <= 1023.
double phal_m_pow2_f64(int n) {
  return uint64BitsToDouble(uint64_t(n + 1023) << 52);
}

// phal-block: phal_m_scale_f64 phal_m_macros phal_m_pow2_f64
// x * 2^n rounded once, for x of magnitude near 1 and any n.
double phal_m_scale_f64(double x, int n) {
  precise double y = x;
  int m = n;
  if (m > 1023) {
    y = y * phal_m_pow2_f64(1023);
    m = m - 1023;
    if (m > 1023) {
      y = y * phal_m_pow2_f64(1023);
      m = min(m - 1023, 1023);
    }
  } else if (m < -1022) {
    y = y * phal_m_pow2_f64(-968);
    m = m + 968;
    if (m < -1022) {
      y = y * phal_m_pow2_f64(-968);
      m = max(m + 968, -1022);
    }
  }
  precise double r = y * phal_m_pow2_f64(m);
  return r;
}

// phal-block: phal_m_exp_dd_f64 phal_m_macros phal_m_fast_two_sum_f64
// exp(zh + zl) == 2^k * (1 + rh + tail) with |rh| <= ln2/2 + tiny and tail
// much smaller than 1, for |zh| <= 746 and |zl| <= ulp(zh). Cody-Waite
// reduction by ln2 (a 42-bit head, so k * head is exact), then the Taylor
// series of exp to degree 13.
void phal_m_exp_dd_f64(double zh, double zl, PHAL_OUT(int) k,
                       PHAL_OUT(double) rh, PHAL_OUT(double) tail) {
  const double inv_ln2 = PHAL_D(0x3FF71547652B82FEUL, 1.4426950408889634);
  const double ln2_hi = PHAL_D(0x3FE62E42FEFA3800UL, 0.69314718055989033);
  const double ln2_lo = PHAL_D(0x3D2EF35793C76730UL, 5.4979230187083712e-14);
  precise double kd = roundEven(zh * inv_ln2);
  precise double a = zh - kd * ln2_hi;
  precise double b = zl - kd * ln2_lo;
  precise double r;
  precise double rl;
  phal_m_fast_two_sum_f64(a, b, r, rl);
  precise double q = PHAL_D(0x3DE6124613A86D09UL, 1.6059043836821613e-10);
  q = fma(q, r, PHAL_D(0x3E21EED8EFF8D898UL, 2.08767569878681e-09));
  q = fma(q, r, PHAL_D(0x3E5AE64567F544E4UL, 2.505210838544172e-08));
  q = fma(q, r, PHAL_D(0x3E927E4FB7789F5CUL, 2.7557319223985888e-07));
  q = fma(q, r, PHAL_D(0x3EC71DE3A556C734UL, 2.7557319223985893e-06));
  q = fma(q, r, PHAL_D(0x3EFA01A01A01A01AUL, 2.4801587301587302e-05));
  q = fma(q, r, PHAL_D(0x3F2A01A01A01A01AUL, 0.00019841269841269841));
  q = fma(q, r, PHAL_D(0x3F56C16C16C16C17UL, 0.0013888888888888889));
  q = fma(q, r, PHAL_D(0x3F81111111111111UL, 0.0083333333333333332));
  q = fma(q, r, PHAL_D(0x3FA5555555555555UL, 0.041666666666666664));
  q = fma(q, r, PHAL_D(0x3FC5555555555555UL, 0.16666666666666666));
  q = fma(q, r, 0.5);
  precise double r2 = r * r;
  precise double t = fma(r2, q, fma(rl, r, rl));
  k = int(kd);
  rh = r;
  tail = t;
}

// phal-block: phal_m_exp_f64 phal_m_macros phal_m_exp_dd_f64 phal_m_fast_two_sum_f64 phal_m_scale_f64 phal_m_inf_f64
double phal_m_exp_f64(double x) {
  if (isnan(x)) return x;
  if (x > PHAL_D(0x4086300000000000UL, 710.0)) return phal_m_inf_f64();
  if (x < PHAL_D(0xC087500000000000UL, -746.0)) return 0.0;
  int k;
  precise double r;
  precise double tail;
  phal_m_exp_dd_f64(x, 0.0, k, r, tail);
  precise double hi;
  precise double lo;
  phal_m_fast_two_sum_f64(1.0, r, hi, lo);
  precise double y = hi + (lo + tail);
  return phal_m_scale_f64(y, k);
}

// phal-block: phal_m_expm1_dd_f64 phal_m_macros phal_m_exp_dd_f64 phal_m_two_sum_f64 phal_m_fast_two_sum_f64 phal_m_pow2_f64
// expm1(x) == h + l for -38 <= x <= 45.
void phal_m_expm1_dd_f64(double x, PHAL_OUT(double) h, PHAL_OUT(double) l) {
  int k;
  precise double r;
  precise double tail;
  phal_m_exp_dd_f64(x, 0.0, k, r, tail);
  if (k == 0) {
    phal_m_fast_two_sum_f64(r, tail, h, l);
    return;
  }
  precise double p = phal_m_pow2_f64(k);
  precise double ch;
  precise double cl;
  phal_m_two_sum_f64(p, -1.0, ch, cl);
  precise double s;
  precise double e;
  phal_m_two_sum_f64(ch, p * r, s, e);
  precise double lo = e + (cl + p * tail);
  phal_m_fast_two_sum_f64(s, lo, h, l);
}

// phal-block: phal_m_expm1_f64 phal_m_macros phal_m_expm1_dd_f64 phal_m_exp_f64
double phal_m_expm1_f64(double x) {
  if (isnan(x) || x == 0.0) return x;
  if (x > PHAL_D(0x4044000000000000UL, 40.0) || x < PHAL_D(0xC042800000000000UL, -37.0)) {
    precise double y = phal_m_exp_f64(x) - 1.0;
    return y;
  }
  precise double h;
  precise double l;
  phal_m_expm1_dd_f64(x, h, l);
  return h;
}

// phal-block: phal_m_log1p_small_f64 phal_m_macros phal_m_two_prod_f64 phal_m_fast_two_sum_f64
// log1p(th + tl) == h + l for |th| <= 2^-7 and |tl| <= ulp(th): the Taylor
// series to degree 12, its first two terms in double-double.
void phal_m_log1p_small_f64(double th, double tl, PHAL_OUT(double) h,
                            PHAL_OUT(double) l) {
  precise double q;
  precise double qe;
  phal_m_two_prod_f64(th, th, q, qe);
  precise double s;
  precise double se;
  phal_m_fast_two_sum_f64(th, -0.5 * q, s, se);
  precise double p = PHAL_D(0xBFB5555555555555UL, -0.083333333333333329);
  p = fma(p, th, PHAL_D(0x3FB745D1745D1746UL, 0.090909090909090912));
  p = fma(p, th, PHAL_D(0xBFB999999999999AUL, -0.10000000000000001));
  p = fma(p, th, PHAL_D(0x3FBC71C71C71C71CUL, 0.1111111111111111));
  p = fma(p, th, PHAL_D(0xBFC0000000000000UL, -0.125));
  p = fma(p, th, PHAL_D(0x3FC2492492492492UL, 0.14285714285714285));
  p = fma(p, th, PHAL_D(0xBFC5555555555555UL, -0.16666666666666666));
  p = fma(p, th, PHAL_D(0x3FC999999999999AUL, 0.20000000000000001));
  p = fma(p, th, PHAL_D(0xBFD0000000000000UL, -0.25));
  p = fma(p, th, PHAL_D(0x3FD5555555555555UL, 0.33333333333333331));
  precise double c = q * th;
  precise double lo = fma(c, p, fma(-th, tl, tl) + (se - 0.5 * qe));
  h = s;
  l = lo;
}

// phal-block: phal_m_log_dd_f64 phal_m_macros phal_m_two_prod_f64 phal_m_two_sum_f64 phal_m_fast_two_sum_f64
// log(x) == h + l (relative error below 2^-68) for finite x > 0, without
// tables: x == 2^e * m, m in [sqrt(1/2), sqrt(2)), s == (m - 1) / (m + 1) in
// double-double (|s| <= 0.1716), log(m) == 2 atanh(s) == 2s + s z Q(z),
// z == s^2, Q(z) == 2/3 + 2z/5 + ... + 2z^12/27 (its first two terms and
// the products in double-double, the rest in double), plus e * ln2.
void phal_m_log_dd_f64(double x, PHAL_OUT(double) h, PHAL_OUT(double) l) {
  const double ln2_hi = PHAL_D(0x3FE62E42FEFA3800UL, 0.69314718055989033);
  const double ln2_lo = PHAL_D(0x3D2EF35793C76730UL, 5.4979230187083712e-14);
  precise double m = x;
  int e = 0;
  if (m < PHAL_D(0x0010000000000000UL, 2.2250738585072014e-308)) {
    m = m * PHAL_D(0x4350000000000000UL, 18014398509481984.0);
    e = -54;
  }
  uint64_t b = doubleBitsToUint64(m);
  e = e + int(b >> 52) - 1023;
  m = uint64BitsToDouble((b & 0x000FFFFFFFFFFFFFUL) | 0x3FF0000000000000UL);
  if (m > PHAL_D(0x3FF6A09E667F3BCDUL, 1.4142135623730951)) {
    m = 0.5 * m;
    e = e + 1;
  }
  // s == (m - 1) / (m + 1); m - 1 is exact.
  precise double n = m - 1.0;
  precise double dh;
  precise double dl;
  phal_m_two_sum_f64(m, 1.0, dh, dl);
  precise double sh = n / dh;
  precise double p;
  precise double pe;
  phal_m_two_prod_f64(sh, dh, p, pe);
  precise double sl = (((n - p) - pe) - sh * dl) / dh;
  // z == s^2 in double-double.
  precise double zh;
  precise double ze;
  phal_m_two_prod_f64(sh, sh, zh, ze);
  precise double zl = ze + 2.0 * sh * sl;
  precise double q = PHAL_D(0x3FB2F684BDA12F68UL, 0.07407407407407407);
  q = fma(q, zh, PHAL_D(0x3FB47AE147AE147BUL, 0.080000000000000002));
  q = fma(q, zh, PHAL_D(0x3FB642C8590B2164UL, 0.086956521739130432));
  q = fma(q, zh, PHAL_D(0x3FB8618618618618UL, 0.095238095238095233));
  q = fma(q, zh, PHAL_D(0x3FBAF286BCA1AF28UL, 0.10526315789473684));
  q = fma(q, zh, PHAL_D(0x3FBE1E1E1E1E1E1EUL, 0.11764705882352941));
  q = fma(q, zh, PHAL_D(0x3FC1111111111111UL, 0.13333333333333333));
  q = fma(q, zh, PHAL_D(0x3FC3B13B13B13B14UL, 0.15384615384615385));
  q = fma(q, zh, PHAL_D(0x3FC745D1745D1746UL, 0.18181818181818182));
  q = fma(q, zh, PHAL_D(0x3FCC71C71C71C71CUL, 0.22222222222222221));
  q = fma(q, zh, PHAL_D(0x3FD2492492492492UL, 0.2857142857142857));
  // B == 2/5 + z q, A == z B, Q == 2/3 + A, W == z Q, V == s W, all in
  // double-double (2/5 and 2/3 as c5h + c5l and c3h + c3l).
  const double c5h = PHAL_D(0x3FD999999999999AUL, 0.40000000000000002);
  const double c5l = PHAL_D(0xBC7999999999999AUL, -2.2204460492503132e-17);
  const double c3h = PHAL_D(0x3FE5555555555555UL, 0.66666666666666663);
  const double c3l = PHAL_D(0x3C85555555555555UL, 3.7007434154171883e-17);
  precise double bh;
  precise double be;
  phal_m_fast_two_sum_f64(c5h, zh * q, bh, be);
  precise double bl = be + c5l;
  precise double ah;
  precise double ae;
  phal_m_two_prod_f64(zh, bh, ah, ae);
  precise double al = ae + (zh * bl + zl * bh);
  precise double qh;
  precise double qe;
  phal_m_fast_two_sum_f64(c3h, ah, qh, qe);
  precise double ql = qe + (c3l + al);
  precise double wh;
  precise double we;
  phal_m_two_prod_f64(zh, qh, wh, we);
  precise double wl = we + (zh * ql + zl * qh);
  precise double vh;
  precise double ve;
  phal_m_two_prod_f64(sh, wh, vh, ve);
  precise double vl = ve + (sh * wl + sl * wh);
  // log(m) == 2s + V; |V| <= |s| / 50.
  precise double th;
  precise double te;
  phal_m_fast_two_sum_f64(2.0 * sh, vh, th, te);
  precise double tl = te + (2.0 * sl + vl);
  precise double ed = double(e);
  precise double a;
  precise double ae2;
  phal_m_two_sum_f64(ed * ln2_hi, th, a, ae2);
  precise double lo = tl + (ae2 + ed * ln2_lo);
  phal_m_fast_two_sum_f64(a, lo, h, l);
}

// phal-block: phal_m_log_f64 phal_m_macros phal_m_log_dd_f64 phal_m_nan_f64 phal_m_inf_f64
double phal_m_log_f64(double x) {
  if (isnan(x)) return x;
  if (x < 0.0) return phal_m_nan_f64();
  if (x == 0.0) return -phal_m_inf_f64();
  if (isinf(x)) return x;
  precise double h;
  precise double l;
  phal_m_log_dd_f64(x, h, l);
  return h;
}

// phal-block: phal_m_log1p_f64 phal_m_macros phal_m_log_dd_f64 phal_m_log1p_small_f64 phal_m_two_sum_f64 phal_m_nan_f64 phal_m_inf_f64
double phal_m_log1p_f64(double x) {
  if (isnan(x) || x == 0.0) return x;
  if (x < -1.0) return phal_m_nan_f64();
  if (x == -1.0) return -phal_m_inf_f64();
  if (isinf(x)) return x;
  precise double h;
  precise double l;
  if (abs(x) < PHAL_D(0x3F80000000000000UL, 0.0078125)) {
    phal_m_log1p_small_f64(x, 0.0, h, l);
    precise double y = h + l;
    return y;
  }
  precise double u;
  precise double ul;
  phal_m_two_sum_f64(1.0, x, u, ul);
  phal_m_log_dd_f64(u, h, l);
  precise double y = h + (l + ul / u);
  return y;
}

// phal-block: phal_m_mul64_f64 phal_m_macros
// hi * 2^64 + lo == a * b.
void phal_m_mul64_f64(uint64_t a, uint64_t b, PHAL_OUT(uint64_t) hi,
                      PHAL_OUT(uint64_t) lo) {
  uint64_t a0 = a & 0xFFFFFFFFUL;
  uint64_t a1 = a >> 32;
  uint64_t b0 = b & 0xFFFFFFFFUL;
  uint64_t b1 = b >> 32;
  uint64_t p00 = a0 * b0;
  uint64_t p01 = a0 * b1;
  uint64_t p10 = a1 * b0;
  uint64_t mid = (p00 >> 32) + (p01 & 0xFFFFFFFFUL) + (p10 & 0xFFFFFFFFUL);
  hi = a1 * b1 + (p01 >> 32) + (p10 >> 32) + (mid >> 32);
  lo = (mid << 32) | (p00 & 0xFFFFFFFFUL);
}

// phal-block: phal_m_two_over_pi phal_m_macros
// Word i of the bits of 2/pi after the binary point, 64 per word, after a
// zero word 0 (i <= 19). A switch, not a table: drivers that lower
// dynamically indexed constant arrays (Mesa's lavapipe) compile those slowly.
uint64_t phal_m_two_over_pi(int i) {
  switch (i) {
    case 1: return 0xA2F9836E4E441529UL;
    case 2: return 0xFC2757D1F534DDC0UL;
    case 3: return 0xDB6295993C439041UL;
    case 4: return 0xFE5163ABDEBBC561UL;
    case 5: return 0xB7246E3A424DD2E0UL;
    case 6: return 0x06492EEA09D1921CUL;
    case 7: return 0xFE1DEB1CB129A73EUL;
    case 8: return 0xE88235F52EBB4484UL;
    case 9: return 0xE99C7026B45F7E41UL;
    case 10: return 0x3991D639835339F4UL;
    case 11: return 0x9C845F8BBDF9283BUL;
    case 12: return 0x1FF897FFDE05980FUL;
    case 13: return 0xEF2F118B5A0A6D1FUL;
    case 14: return 0x6D367ECF27CB09B7UL;
    case 15: return 0x4F463F669E5FEA2DUL;
    case 16: return 0x7527BAC7EBE5F17BUL;
    case 17: return 0x3D0739F78A5292EAUL;
    case 18: return 0x6BFB5FB11F8D5D08UL;
    case 19: return 0x56033046FC7B6BABUL;
    default: return 0UL;
  }
}

// phal-block: phal_m_window_f64 phal_m_macros phal_m_two_over_pi
// 64 bits of phal_m_two_over_pi from word w, bit sh (0 <= sh < 64).
uint64_t phal_m_window_f64(int w, int sh) {
  uint64_t v = phal_m_two_over_pi(w) << sh;
  if (sh != 0) v = v | (phal_m_two_over_pi(w + 1) >> (64 - sh));
  return v;
}

// phal-block: phal_m_rem_pio2_f64 phal_m_macros phal_m_two_prod_f64 phal_m_two_sum_f64 phal_m_fast_two_sum_f64 phal_m_mul64_f64 phal_m_window_f64
// x == (4n + q) * pi/2 + rh + rl with |rh + rl| <= pi/4 (plus a few ulp),
// for finite x; returns q. Cody-Waite with a three-double pi/2 below 2^30,
// else Payne-Hanek with 192 bits of 2/pi from the significand's exponent on.
int phal_m_rem_pio2_f64(double x, PHAL_OUT(double) rh, PHAL_OUT(double) rl) {
  const double p1 = PHAL_D(0x3FF921FB54442D18UL, 1.5707963267948966);
  const double p2 = PHAL_D(0x3C91A62633145C07UL, 6.123233995736766e-17);
  const double p3 = PHAL_D(0xB91F1976B7ED8FBCUL, -1.4973849048591698e-33);
  double ax = abs(x);
  if (ax <= PHAL_D(0x3FE921FB54442D18UL, 0.78539816339744828)) {
    rh = x;
    rl = 0.0;
    return 0;
  }
  if (ax < PHAL_D(0x41D0000000000000UL, 1073741824.0)) {
    precise double kd = roundEven(x * PHAL_D(0x3FE45F306DC9C883UL, 0.63661977236758138));
    precise double p;
    precise double pe;
    phal_m_two_prod_f64(kd, p1, p, pe);
    precise double t = x - p;
    precise double q;
    precise double qe;
    phal_m_two_prod_f64(kd, p2, q, qe);
    precise double s;
    precise double e1;
    phal_m_two_sum_f64(t, -q, s, e1);
    precise double s2;
    precise double e2;
    phal_m_two_sum_f64(s, -pe, s2, e2);
    precise double lo = (e1 + e2) - fma(kd, p3, qe);
    phal_m_fast_two_sum_f64(s2, lo, rh, rl);
    return int(uint(int(kd)) & 3u);
  }
  uint64_t b = doubleBitsToUint64(ax);
  int e = int(b >> 52) - 1075;
  uint64_t m = (b & 0x000FFFFFFFFFFFFFUL) | 0x0010000000000000UL;
  int j = e + 62;
  int w = j >> 6;
  int sh = j & 63;
  uint64_t w0 = phal_m_window_f64(w, sh);
  uint64_t w1 = phal_m_window_f64(w + 1, sh);
  uint64_t w2 = phal_m_window_f64(w + 2, sh);
  uint64_t h0;
  uint64_t l0;
  uint64_t h1;
  uint64_t l1;
  uint64_t h2;
  uint64_t l2;
  phal_m_mul64_f64(m, w0, h0, l0);
  phal_m_mul64_f64(m, w1, h1, l1);
  phal_m_mul64_f64(m, w2, h2, l2);
  uint64_t r1 = l1 + h2;
  uint64_t r2 = l0 + h1 + (r1 < l1 ? 1UL : 0UL);
  uint64_t r0 = l2;
  int q = int(r2 >> 62);
  uint64_t f0 = (r2 << 2) | (r1 >> 62);
  uint64_t f1 = (r1 << 2) | (r0 >> 62);
  bool neg = (f0 >> 63) != 0UL;
  if (neg) {
    q = q + 1;
    f0 = ~f0;
    f1 = ~f1;
  }
  precise double d1 = double(f0 >> 11) * PHAL_D(0x3CA0000000000000UL, 1.1102230246251565e-16);
  precise double d2 =
      double(((f0 & 0x7FFUL) << 42) | (f1 >> 22)) * PHAL_D(0x3950000000000000UL, 1.2325951644078310e-32);
  precise double d3 = double(f1 & 0x3FFFFFUL) * PHAL_D(0x37F0000000000000UL, 2.9387358770557188e-39);
  precise double fh;
  precise double fl;
  phal_m_two_sum_f64(d1, d2, fh, fl);
  fl = fl + d3;
  precise double a;
  precise double ae;
  phal_m_two_prod_f64(fh, p1, a, ae);
  precise double lo = ae + fma(fh, p2, fl * p1);
  precise double sh2;
  precise double sl2;
  phal_m_fast_two_sum_f64(a, lo, sh2, sl2);
  if (neg != (x < 0.0)) {
    sh2 = -sh2;
    sl2 = -sl2;
  }
  rh = sh2;
  rl = sl2;
  if (x < 0.0) q = -q;
  return int(uint(q) & 3u);
}

// phal-block: phal_m_sin_kernel_f64 phal_m_macros phal_m_fast_two_sum_f64
// sin(rh + rl) == h + l for |rh| <= pi/4 + tiny: Taylor series to degree 19.
void phal_m_sin_kernel_f64(double rh, double rl, PHAL_OUT(double) h,
                           PHAL_OUT(double) l) {
  precise double z = rh * rh;
  precise double s = PHAL_D(0xBC62F49B46814157UL, -8.2206352466243295e-18);
  s = fma(s, z, PHAL_D(0x3CE952C77030AD4AUL, 2.8114572543455206e-15));
  s = fma(s, z, PHAL_D(0xBD6AE7F3E733B81FUL, -7.6471637318198164e-13));
  s = fma(s, z, PHAL_D(0x3DE6124613A86D09UL, 1.6059043836821613e-10));
  s = fma(s, z, PHAL_D(0xBE5AE64567F544E4UL, -2.505210838544172e-08));
  s = fma(s, z, PHAL_D(0x3EC71DE3A556C734UL, 2.7557319223985893e-06));
  s = fma(s, z, PHAL_D(0xBF2A01A01A01A01AUL, -0.00019841269841269841));
  s = fma(s, z, PHAL_D(0x3F81111111111111UL, 0.0083333333333333332));
  s = fma(s, z, PHAL_D(0xBFC5555555555555UL, -0.16666666666666666));
  precise double rz = rh * z;
  precise double lo = fma(rz, s, fma(-0.5 * z, rl, rl));
  phal_m_fast_two_sum_f64(rh, lo, h, l);
}

// phal-block: phal_m_cos_kernel_f64 phal_m_macros phal_m_two_prod_f64 phal_m_fast_two_sum_f64
// cos(rh + rl) == h + l for |rh| <= pi/4 + tiny: Taylor series to degree 18.
void phal_m_cos_kernel_f64(double rh, double rl, PHAL_OUT(double) h,
                           PHAL_OUT(double) l) {
  precise double z;
  precise double ze;
  phal_m_two_prod_f64(rh, rh, z, ze);
  precise double a;
  precise double ae;
  phal_m_fast_two_sum_f64(1.0, -0.5 * z, a, ae);
  precise double c = PHAL_D(0xBCA6827863B97D97UL, -1.5619206968586225e-16);
  c = fma(c, z, PHAL_D(0x3D2AE7F3E733B81FUL, 4.7794773323873853e-14));
  c = fma(c, z, PHAL_D(0xBDA93974A8C07C9DUL, -1.1470745597729725e-11));
  c = fma(c, z, PHAL_D(0x3E21EED8EFF8D898UL, 2.08767569878681e-09));
  c = fma(c, z, PHAL_D(0xBE927E4FB7789F5CUL, -2.7557319223985888e-07));
  c = fma(c, z, PHAL_D(0x3EFA01A01A01A01AUL, 2.4801587301587302e-05));
  c = fma(c, z, PHAL_D(0xBF56C16C16C16C17UL, -0.0013888888888888889));
  c = fma(c, z, PHAL_D(0x3FA5555555555555UL, 0.041666666666666664));
  precise double z2 = z * z;
  precise double lo = fma(z2, c, ae - fma(0.5, ze, rh * rl));
  phal_m_fast_two_sum_f64(a, lo, h, l);
}

// phal-block: phal_m_sin_f64 phal_m_macros phal_m_rem_pio2_f64 phal_m_sin_kernel_f64 phal_m_cos_kernel_f64 phal_m_nan_f64
double phal_m_sin_f64(double x) {
  if (isnan(x) || x == 0.0) return x;
  if (isinf(x)) return phal_m_nan_f64();
  precise double rh;
  precise double rl;
  int q = phal_m_rem_pio2_f64(x, rh, rl);
  precise double h;
  precise double l;
  if ((q & 1) == 0) {
    phal_m_sin_kernel_f64(rh, rl, h, l);
  } else {
    phal_m_cos_kernel_f64(rh, rl, h, l);
  }
  precise double y = h + l;
  return q >= 2 ? -y : y;
}

// phal-block: phal_m_cos_f64 phal_m_macros phal_m_rem_pio2_f64 phal_m_sin_kernel_f64 phal_m_cos_kernel_f64 phal_m_nan_f64
double phal_m_cos_f64(double x) {
  if (isnan(x)) return x;
  if (isinf(x)) return phal_m_nan_f64();
  precise double rh;
  precise double rl;
  int q = phal_m_rem_pio2_f64(x, rh, rl);
  precise double h;
  precise double l;
  if ((q & 1) == 0) {
    phal_m_cos_kernel_f64(rh, rl, h, l);
  } else {
    phal_m_sin_kernel_f64(rh, rl, h, l);
  }
  precise double y = h + l;
  return (q == 1 || q == 2) ? -y : y;
}

// phal-block: phal_m_tan_f64 phal_m_macros phal_m_rem_pio2_f64 phal_m_sin_kernel_f64 phal_m_cos_kernel_f64 phal_m_two_prod_f64 phal_m_nan_f64
double phal_m_tan_f64(double x) {
  if (isnan(x) || x == 0.0) return x;
  if (isinf(x)) return phal_m_nan_f64();
  precise double rh;
  precise double rl;
  int q = phal_m_rem_pio2_f64(x, rh, rl);
  precise double sh;
  precise double sl;
  precise double ch;
  precise double cl;
  phal_m_sin_kernel_f64(rh, rl, sh, sl);
  phal_m_cos_kernel_f64(rh, rl, ch, cl);
  precise double nh = sh;
  precise double nl = sl;
  precise double dh = ch;
  precise double dl = cl;
  if ((q & 1) != 0) {
    nh = ch;
    nl = cl;
    dh = -sh;
    dl = -sl;
  }
  precise double t = nh / dh;
  precise double p;
  precise double pe;
  phal_m_two_prod_f64(t, dh, p, pe);
  precise double r = (((nh - p) - pe) + nl) - t * dl;
  precise double y = t + r / dh;
  return y;
}

// phal-block: phal_m_atan_kernel_f64 phal_m_macros phal_m_two_prod_f64 phal_m_two_sum_f64 phal_m_fast_two_sum_f64
// atan(n / d) == h + l for 0 <= n <= d, d in [1, 2): atan(c) for c == j/16
// nearest n/d, plus atan(u), u == (n - c d) / (d + c n) in
// double-double with |u| <= 1/32, by its Taylor series to degree 15.
void phal_m_atan_kernel_f64(double n, double d, PHAL_OUT(double) h,
                            PHAL_OUT(double) l) {
  precise double v = n / d;
  int j = int(roundEven(v * 16.0));
  precise double c = double(j) * 0.0625;
  precise double p;
  precise double pe;
  phal_m_two_prod_f64(c, d, p, pe);
  precise double nh;
  precise double ne;
  phal_m_two_sum_f64(n, -p, nh, ne);
  precise double nl = ne - pe;
  precise double p2;
  precise double p2e;
  phal_m_two_prod_f64(c, n, p2, p2e);
  precise double dh;
  precise double de;
  phal_m_two_sum_f64(d, p2, dh, de);
  precise double dl = de + p2e;
  precise double uh = nh / dh;
  precise double q;
  precise double qe;
  phal_m_two_prod_f64(uh, dh, q, qe);
  precise double ur = (((nh - q) - qe) + nl) - uh * dl;
  precise double ul = ur / dh;
  precise double z = uh * uh;
  precise double a = PHAL_D(0xBFB1111111111111UL, -0.066666666666666666);
  a = fma(a, z, PHAL_D(0x3FB3B13B13B13B14UL, 0.076923076923076927));
  a = fma(a, z, PHAL_D(0xBFB745D1745D1746UL, -0.090909090909090912));
  a = fma(a, z, PHAL_D(0x3FBC71C71C71C71CUL, 0.1111111111111111));
  a = fma(a, z, PHAL_D(0xBFC2492492492492UL, -0.14285714285714285));
  a = fma(a, z, PHAL_D(0x3FC999999999999AUL, 0.20000000000000001));
  a = fma(a, z, PHAL_D(0xBFD5555555555555UL, -0.33333333333333331));
  precise double uz = uh * z;
  precise double tail = fma(uz, a, fma(-z, ul, ul));
  // atan(c) in double-double by a switch (no table, see erf).
  double th = 0.0;
  double tl = 0.0;
  switch (j) {
    case 1:  // atan(1/16)
      th = PHAL_D(0x3FAFF55BB72CFDEAUL, 0.06241880999595735);
      tl = PHAL_D(0xBC3C934D86D23F1DUL, -1.5490756308295046e-18);
      break;
    case 2:  // atan(2/16)
      th = PHAL_D(0x3FBFD5BA9AAC2F6EUL, 0.12435499454676144);
      tl = PHAL_D(0xBC4CD37686760C17UL, -3.1253241424539383e-18);
      break;
    case 3:  // atan(3/16)
      th = PHAL_D(0x3FC7B97B4BCE5B02UL, 0.18534794999569476);
      tl = PHAL_D(0x3C5347B0B4F881CAUL, 4.180692268843079e-18);
      break;
    case 4:  // atan(4/16)
      th = PHAL_D(0x3FCF5B75F92C80DDUL, 0.24497866312686414);
      tl = PHAL_D(0x3C68AB6E3CF7AFBDUL, 1.0698755618734451e-17);
      break;
    case 5:  // atan(5/16)
      th = PHAL_D(0x3FD362773707EBCCUL, 0.30288486837497142);
      tl = PHAL_D(0xBC6963A544B672D8UL, -1.1010827903001369e-17);
      break;
    case 6:  // atan(6/16)
      th = PHAL_D(0x3FD6F61941E4DEF1UL, 0.35877067027057225);
      tl = PHAL_D(0xBC7C63AAE6F6E918UL, -2.4623815582638635e-17);
      break;
    case 7:  // atan(7/16)
      th = PHAL_D(0x3FDA64EEC3CC23FDUL, 0.41241044159738732);
      tl = PHAL_D(0xBC724DEC1B50B7FFUL, -1.5876522277706891e-17);
      break;
    case 8:  // atan(8/16)
      th = PHAL_D(0x3FDDAC670561BB4FUL, 0.46364760900080609);
      tl = PHAL_D(0x3C7A2B7F222F65E2UL, 2.2698777452961687e-17);
      break;
    case 9:  // atan(9/16)
      th = PHAL_D(0x3FE0657E94DB30D0UL, 0.51238946031073773);
      tl = PHAL_D(0xBC7D5B495F6349E6UL, -2.5462781472855804e-17);
      break;
    case 10:  // atan(10/16)
      th = PHAL_D(0x3FE1E00BABDEFEB4UL, 0.55859931534356244);
      tl = PHAL_D(0xBC5928DF287A668FUL, -5.4556305485916264e-18);
      break;
    case 11:  // atan(11/16)
      th = PHAL_D(0x3FE345F01CCE37BBUL, 0.60228734613496415);
      tl = PHAL_D(0x3C81021137C71102UL, 2.9504307372284023e-17);
      break;
    case 12:  // atan(12/16)
      th = PHAL_D(0x3FE4978FA3269EE1UL, 0.64350110879328437);
      tl = PHAL_D(0x3C72419A87F2A458UL, 1.5834785051444286e-17);
      break;
    case 13:  // atan(13/16)
      th = PHAL_D(0x3FE5D58987169B18UL, 0.68231655487474807);
      tl = PHAL_D(0x3C60028E4BC5E7CAUL, 6.9432236715600077e-18);
      break;
    case 14:  // atan(14/16)
      th = PHAL_D(0x3FE700A7C5784634UL, 0.71882999962162453);
      tl = PHAL_D(0xBC78C34D25AADEF6UL, -2.1478388444456983e-17);
      break;
    case 15:  // atan(15/16)
      th = PHAL_D(0x3FE819D0B7158A4DUL, 0.75315128096219441);
      tl = PHAL_D(0xBC7BF76229D3B917UL, -2.4256934659182068e-17);
      break;
    case 16:  // atan(16/16)
      th = PHAL_D(0x3FE921FB54442D18UL, 0.78539816339744828);
      tl = PHAL_D(0x3C81A62633145C07UL, 3.061616997868383e-17);
      break;
  }
  precise double s;
  precise double se;
  phal_m_two_sum_f64(th, uh, s, se);
  precise double lo = se + (tl + tail);
  phal_m_fast_two_sum_f64(s, lo, h, l);
}

// phal-block: phal_m_atan_f64 phal_m_macros phal_m_atan_kernel_f64 phal_m_two_sum_f64
double phal_m_atan_f64(double x) {
  const double pio2_hi = PHAL_D(0x3FF921FB54442D18UL, 1.5707963267948966);
  const double pio2_lo = PHAL_D(0x3C91A62633145C07UL, 6.123233995736766e-17);
  if (isnan(x) || x == 0.0) return x;
  double ax = abs(x);
  precise double y;
  if (isinf(x)) {
    y = pio2_hi;
  } else if (ax <= 1.0) {
    precise double h;
    precise double l;
    phal_m_atan_kernel_f64(ax, 1.0, h, l);
    y = h;
  } else {
    precise double h;
    precise double l;
    phal_m_atan_kernel_f64(1.0, ax, h, l);
    precise double s;
    precise double se;
    phal_m_two_sum_f64(pio2_hi, -h, s, se);
    y = s + ((se + pio2_lo) - l);
  }
  return x < 0.0 ? -y : y;
}

// phal-block: phal_m_atan2_f64 phal_m_macros phal_m_atan_kernel_f64 phal_m_two_sum_f64 phal_m_scale_f64
double phal_m_atan2_f64(double y, double x) {
  const double pi_hi = PHAL_D(0x400921FB54442D18UL, 3.1415926535897931);
  const double pi_lo = PHAL_D(0x3CA1A62633145C07UL, 1.2246467991473532e-16);
  const double pio2_hi = PHAL_D(0x3FF921FB54442D18UL, 1.5707963267948966);
  const double pio2_lo = PHAL_D(0x3C91A62633145C07UL, 6.123233995736766e-17);
  const double pio4 = PHAL_D(0x3FE921FB54442D18UL, 0.78539816339744828);
  const double pi3o4 = PHAL_D(0x4002D97C7F3321D2UL, 2.3561944901923448);
  if (isnan(x) || isnan(y)) return x + y;
  bool xneg = (doubleBitsToUint64(x) >> 63) != 0UL;
  bool yneg = y < 0.0 || (y == 0.0 && (doubleBitsToUint64(y) >> 63) != 0UL);
  precise double r;
  double ax = abs(x);
  double ay = abs(y);
  if (y == 0.0) {
    r = xneg ? pi_hi : 0.0;
  } else if (x == 0.0) {
    r = pio2_hi;
  } else if (isinf(ay)) {
    r = isinf(ax) ? (xneg ? pi3o4 : pio4) : pio2_hi;
  } else if (isinf(ax)) {
    r = xneg ? pi_hi : 0.0;
  } else {
    double mx = max(ax, ay);
    double mn = min(ax, ay);
    if (mn < mx * PHAL_D(0x3C30000000000000UL, 8.6736173798840355e-19)) {
      // atan(t) == t to double precision for t < 2^-60.
      if (ay < ax) {
        precise double t = ay / ax;
        r = xneg ? pi_hi : t;
      } else {
        r = pio2_hi;
      }
    } else {
      int e = int(doubleBitsToUint64(mx) >> 52) - 1023;
      double sn = phal_m_scale_f64(mn, -e);
      double sd = phal_m_scale_f64(mx, -e);
      precise double h;
      precise double l;
      phal_m_atan_kernel_f64(sn, sd, h, l);
      if (ay > ax) {
        precise double s;
        precise double se;
        phal_m_two_sum_f64(pio2_hi, -h, s, se);
        h = s;
        l = (se + pio2_lo) - l;
      }
      if (xneg) {
        precise double s;
        precise double se;
        phal_m_two_sum_f64(pi_hi, -h, s, se);
        h = s;
        l = (se + pi_lo) - l;
      }
      r = h + l;
    }
  }
  return yneg ? -r : r;
}

// phal-block: phal_m_erf_f64 phal_m_macros phal_m_two_prod_f64 phal_m_two_sum_f64
// |x| < 1/4: the Maclaurin series to degree 19. 1/4 <= |x| < 6: the Taylor
// series to degree 17 around the nearest of 23 centers c == (2j + 3)/8
// (|t| == |x - c| <= 1/8, exact): erf(c) and g(c) == erf'(c) ==
// 2/sqrt(pi) e^-c^2 in double-double come from a switch (literals, no
// table: drivers that lower indexed constant arrays compile those slowly),
// the higher coefficients from g's recurrence (k + 1) g_{k+1} ==
// -2 (c g_k + g_{k-1}), run on G_k == g_k t^k. Beyond: erf(x) rounds to +-1.
double phal_m_erf_f64(double x) {
  if (isnan(x) || x == 0.0) return x;
  double ax = abs(x);
  precise double y;
  if (ax >= 6.0) {
    y = 1.0;
  } else if (ax < 0.25) {
    const double k_hi = PHAL_D(0x3FF20DD750429B6DUL, 1.1283791670955126);
    const double k_lo = PHAL_D(0x3C71AE3A914FED80UL, 1.5335459613165881e-17);
    precise double z = ax * ax;
    precise double q = PHAL_D(0xBE83777C55568CCDUL, -1.4503852223150468e-07);
    q = fma(q, z, PHAL_D(0x3EB87A00187A0018UL, 1.4589169000933706e-06));
    q = fma(q, z, PHAL_D(0xBEEBBD779334EF0BUL, -1.3227513227513228e-05));
    q = fma(q, z, PHAL_D(0x3F1C01C01C01C01CUL, 0.00010683760683760684));
    q = fma(q, z, PHAL_D(0xBF48D3018D3018D3UL, -0.00075757575757575758));
    q = fma(q, z, PHAL_D(0x3F72F684BDA12F68UL, 0.0046296296296296294));
    q = fma(q, z, PHAL_D(0xBF98618618618618UL, -0.023809523809523808));
    q = fma(q, z, PHAL_D(0x3FB999999999999AUL, 0.10000000000000001));
    q = fma(q, z, PHAL_D(0xBFD5555555555555UL, -0.33333333333333331));
    // Below 2^-900 the product runs on ax * 2^110 and scales back (exactly
    // for normal results; subnormal ones round twice, within 0.75 ulp), so
    // that Dekker's splitting is exact for subnormal ax and its low parts
    // stay normal where denormals flush.
    precise double xs = ax;
    precise double back = 1.0;
    if (ax < PHAL_D(0x07B0000000000000UL, 1.1830521861667747e-271)) {
      xs = ax * PHAL_D(0x46D0000000000000UL, 1.2980742146337069e+33);
      back = PHAL_D(0x3910000000000000UL, 7.7037197775489434e-34);
    }
    precise double a;
    precise double ae;
    phal_m_two_prod_f64(k_hi, xs, a, ae);
    precise double az = a * z;
    y = (a + fma(az, q, fma(k_lo, xs, ae))) * back;
  } else {
    int j = min(int((ax - 0.25) * 4.0), 22);
    precise double c = double(2 * j + 3) * 0.125;
    precise double t = ax - c;
    double eh = 0.0;
    double el = 0.0;
    double gh = 0.0;
    double gl = 0.0;
    switch (j) {
    case 0:  // c == 0.375
      eh = PHAL_D(0x3FD9DD0D2B721F39UL, 0.40411690943482231);
      el = PHAL_D(0xBC71671C021D14C4UL, -1.5094497806256517e-17);
      gh = PHAL_D(0x3FEF5F0CDAF15313UL, 0.98035280954590787);
      gl = PHAL_D(0x3C3DFF29F5AD8117UL, 1.626126208724185e-18);
      break;
    case 1:  // c == 0.625
      eh = PHAL_D(0x3FE3F196DCD0F135UL, 0.623240882188418);
      el = PHAL_D(0xBC7F25F4F6FDF70BUL, -2.7016816836135297e-17);
      gh = PHAL_D(0x3FE86E9694134B9EUL, 0.76349953576060492);
      gl = PHAL_D(0xBC83BDA1314B1D68UL, -3.4244726591143616e-17);
      break;
    case 2:  // c == 0.875
      eh = PHAL_D(0x3FE91724951B8FC6UL, 0.78407506105985969);
      el = PHAL_D(0xBC827912DD352F8BUL, -3.2045449788903482e-17);
      gh = PHAL_D(0x3FE0CAB61F084B93UL, 0.5247450452901482);
      gl = PHAL_D(0x3C7098A511A778E7UL, 1.4394968509262369e-17);
      break;
    case 3:  // c == 1.125
      eh = PHAL_D(0x3FEC6DAD2829EC62UL, 0.88838823170170778);
      el = PHAL_D(0xBC6AB76D4CBA3D05UL, -1.1586439937397689e-17);
      gh = PHAL_D(0x3FD45E99BCBB7915UL, 0.31827395850076928);
      gl = PHAL_D(0x3C77BCD0125A8155UL, 2.0589042556002661e-17);
      break;
    case 4:  // c == 1.375
      eh = PHAL_D(0x3FEE5768C3B4A3FCUL, 0.94817007278209031);
      el = PHAL_D(0x3C68B62674F89890UL, 1.071691533519912e-17);
      gh = PHAL_D(0x3FC5CE595C455B0AUL, 0.17035977368751559);
      gl = PHAL_D(0x3C4C317415C2C6E1UL, 3.0567104366954338e-18);
      break;
    case 5:  // c == 1.625
      eh = PHAL_D(0x3FEF4F693B67BD77UL, 0.97844373323998368);
      el = PHAL_D(0xBC73A1EE1406C356UL, -1.7028513178925588e-17);
      gh = PHAL_D(0x3FB499D478BCA735UL, 0.080472259022511164);
      gl = PHAL_D(0x3C331C41D17378E2UL, 1.0359757380047113e-18);
      break;
    case 6:  // c == 1.875
      eh = PHAL_D(0x3FEFBE61EEF4CF6AUL, 0.99199005767011994);
      el = PHAL_D(0x3C815DED88667618UL, 3.0126779045582727e-17);
      gh = PHAL_D(0x3FA12CEB37FF9BC3UL, 0.033545828424216072);
      gl = PHAL_D(0x3C4A3B0B09D34761UL, 2.8439313818743537e-18);
      break;
    case 7:  // c == 2.125
      eh = PHAL_D(0x3FEFEA4218D6594AUL, 0.99734597064051767);
      el = PHAL_D(0xBC5E3333D8F7D98CUL, -6.5485832643157409e-18);
      gh = PHAL_D(0x3F894624E78E0FAFUL, 0.012340820614333696);
      gl = PHAL_D(0xBC241864737C78FFUL, -5.4468373069319597e-19);
      break;
    case 8:  // c == 2.375
      eh = PHAL_D(0x3FEFF9960F3EB327UL, 0.9992170617821089);
      el = PHAL_D(0xBC708B1CA6E97F80UL, -1.4349117332555682e-17);
      gh = PHAL_D(0x3F706918B6355624UL, 0.0040064778616702192);
      gl = PHAL_D(0x3C121B463B8E3A00UL, 2.4538938067705816e-19);
      break;
    case 9:  // c == 2.625
      eh = PHAL_D(0x3FEFFE514BBDC197UL, 0.99979462426385879);
      el = PHAL_D(0xBC5CD963345B5C6DUL, -6.2556665556923804e-18);
      gh = PHAL_D(0x3F52CE898809244EUL, 0.001147875125882675);
      gl = PHAL_D(0x3BF092B45493A9E8UL, 5.6151725397241339e-20);
      break;
    case 10:  // c == 2.875
      eh = PHAL_D(0x3FEFFF9BA420E834UL, 0.99995214516025621);
      el = PHAL_D(0x3C71379EC5AA630EUL, 1.4933598125857999e-17);
      gh = PHAL_D(0x3F330538FBB77ECDUL, 0.00029022828286249803);
      gl = PHAL_D(0x3BA8C5E8C1B3532FUL, 2.622952170736376e-21);
      break;
    case 11:  // c == 3.125
      eh = PHAL_D(0x3FEFFFEB3EBB267BUL, 0.99999010326537474);
      el = PHAL_D(0x3C6E47F697047CBAUL, 1.3132336543493276e-17);
      gh = PHAL_D(0x3F10F9E1B4DD36DFUL, 6.4758683234712979e-05);
      gl = PHAL_D(0xBB83FEDC80D9C7AEUL, -5.2927785746372815e-22);
      break;
    case 12:  // c == 3.375
      eh = PHAL_D(0x3FEFFFFC316D9ED0UL, 0.9999981847185726);
      el = PHAL_D(0xBC88B32F44F46B3BUL, -4.284756581330801e-17);
      gh = PHAL_D(0x3EEABE09E9144B5EUL, 1.2751740799765088e-05);
      gl = PHAL_D(0x3B8308300923FE4BUL, 5.0377239451172289e-22);
      break;
    case 13:  // c == 3.625
      eh = PHAL_D(0x3FEFFFFF618C3DA6UL, 0.99999970485980749);
      el = PHAL_D(0xBC519309CE23AA3EUL, -3.8108336724873686e-18);
      gh = PHAL_D(0x3EC296A70F414053UL, 2.2159202846331124e-06);
      gl = PHAL_D(0x3B5036E65808A17DUL, 5.3649122239349093e-23);
      break;
    case 14:  // c == 3.875
      eh = PHAL_D(0x3FEFFFFFE92CED93UL, 0.99999995748605597);
      el = PHAL_D(0xBC8D2DB2ECFE14AEUL, -5.0616648789558536e-17);
      gh = PHAL_D(0x3E96CE1AA3FD7BDDUL, 3.398223817809154e-07);
      gl = PHAL_D(0x3AFBF15B0BC56AABUL, 1.4446086687068086e-24);
      break;
    case 15:  // c == 4.125
      eh = PHAL_D(0x3FEFFFFFFD169D0CUL, 0.99999999457659916);
      el = PHAL_D(0x3C870A2BFB068E6FUL, 3.99675667392096e-17);
      gh = PHAL_D(0x3E68B0CFCE0579E0UL, 4.5989958288460521e-08);
      gl = PHAL_D(0xBB0E8BAD9967EC2CUL, -3.1583428412869743e-24);
      break;
    case 16:  // c == 4.375
      eh = PHAL_D(0x3FEFFFFFFFABD229UL, 0.99999999938751671);
      el = PHAL_D(0xBC64DBE49BEC3EF2UL, -9.0461306187295456e-18);
      gh = PHAL_D(0x3E37974E743DEA3DUL, 5.4927172288534643e-09);
      gl = PHAL_D(0xBADB6101DDD90BDBUL, -3.5386443754100396e-25);
      break;
    case 17:  // c == 4.625
      eh = PHAL_D(0x3FEFFFFFFFF79626UL, 0.99999999993878386);
      el = PHAL_D(0x3C85FBC52D650A89UL, 3.8135254393882261e-17);
      gh = PHAL_D(0x3E03E44E45301B92UL, 5.789281366587474e-10);
      gl = PHAL_D(0x3AA1A5C00D13A5F2UL, 2.8511012095743113e-26);
      break;
    case 18:  // c == 4.875
      eh = PHAL_D(0x3FEFFFFFFFFF4188UL, 0.99999999999458655);
      el = PHAL_D(0x3C87A2CB3D056EACUL, 4.1001774321813545e-17);
      gh = PHAL_D(0x3DCD9A880F306BD8UL, 5.384870492099458e-11);
      gl = PHAL_D(0xBA1FBEC4689FF1DAUL, -1.0017013979424267e-28);
      break;
    case 19:  // c == 5.125
      eh = PHAL_D(0x3FEFFFFFFFFFF11AUL, 0.99999999999957656);
      el = PHAL_D(0xBC73EAFCCBC6E8B7UL, -1.7276041587662889e-17);
      gh = PHAL_D(0x3D9370AB8327AF5EUL, 4.4201708693385726e-12);
      gl = PHAL_D(0xBA31CDF083EE84BCUL, -2.2472376814131395e-28);
      break;
    case 20:  // c == 5.375
      eh = PHAL_D(0x3FEFFFFFFFFFFEF8UL, 0.99999999999997069);
      el = PHAL_D(0x3C714BE6226402C7UL, 1.5002305232589177e-17);
      gh = PHAL_D(0x3D568823E52970BEUL, 3.2019610382476225e-13);
      gl = PHAL_D(0x39D24038AE49EFBDUL, 3.5993484476961672e-30);
      break;
    case 21:  // c == 5.625
      eh = PHAL_D(0x3FEFFFFFFFFFFFF0UL, 0.99999999999999822);
      el = PHAL_D(0xBC720EF3618F2D54UL, -1.5663166250755952e-17);
      gh = PHAL_D(0x3D170BEAF9C7FFB6UL, 2.0469452084237929e-14);
      gl = PHAL_D(0xB98B0D0718F5CFD3UL, -1.6671397825678685e-31);
      break;
    default:  // c == 5.875
      eh = PHAL_D(0x3FEFFFFFFFFFFFFFUL, 0.99999999999999989);
      el = PHAL_D(0x3C70439397B5F70AUL, 1.4106746009743903e-17);
      gh = PHAL_D(0x3CD4CD9C04158CD7UL, 1.1548074643502529e-15);
      gl = PHAL_D(0x397533947579E54DUL, 6.5332116804703405e-32);
      break;

    }
    // s == sum over k >= 1 of G_k / (k + 1), so that erf(x) == erf(c) +
    // t g(c) + t s.
    precise double ct = c * t;
    precise double tt = t * t;
    precise double gp = gh;
    precise double gk = -2.0 * ct * gh;
    precise double s = 0.5 * gk;
    for (int k = 1; k < 16; ++k) {
      precise double gn = -2.0 * (ct * gk + tt * gp) / double(k + 1);
      gp = gk;
      gk = gn;
      s = s + gk / double(k + 2);
    }
    precise double p;
    precise double pe;
    phal_m_two_prod_f64(gh, t, p, pe);
    precise double u;
    precise double ue;
    phal_m_two_sum_f64(eh, p, u, ue);
    precise double lo = (ue + el) + (fma(gl, t, pe) + t * s);
    y = u + lo;
  }
  return x < 0.0 ? -y : y;
}

// phal-block: phal_m_cbrt_f64 phal_m_macros phal_m_two_prod_f64 phal_m_pow2_f64
// x == t * 2^(3q), t in [1, 8); Newton's iteration for t^(1/3) from a chord,
// then one step on the residual t - y^3 computed exactly.
double phal_m_cbrt_f64(double x) {
  if (isnan(x) || isinf(x) || x == 0.0) return x;
  precise double ax = abs(x);
  int adj = 0;
  if (ax < PHAL_D(0x0010000000000000UL, 2.2250738585072014e-308)) {
    ax = ax * PHAL_D(0x4350000000000000UL, 18014398509481984.0);
    adj = -18;
  }
  uint64_t b = doubleBitsToUint64(ax);
  int eb = int(b >> 52) + 3;
  int q = eb / 3;
  int rr = eb - 3 * q;
  q = q - 342 + adj;
  precise double t = uint64BitsToDouble(
      (b & 0x000FFFFFFFFFFFFFUL) | (uint64_t(1023 + rr) << 52));
  precise double y = 1.0 + (t - 1.0) * PHAL_D(0x3FC2492492492492UL, 0.14285714285714285);
  for (int i = 0; i < 6; ++i) {
    y = y - (y * y * y - t) / (3.0 * y * y);
  }
  precise double s;
  precise double se;
  phal_m_two_prod_f64(y, y, s, se);
  precise double c;
  precise double ce;
  phal_m_two_prod_f64(s, y, c, ce);
  precise double res = (c - t) + fma(se, y, ce);
  y = y - res / (3.0 * s);
  y = y * phal_m_pow2_f64(q);
  return x < 0.0 ? -y : y;
}

// phal-block: phal_m_sqrt_f64 phal_m_macros phal_m_two_prod_f64 phal_m_nan_f64 phal_m_pow2_f64
// The builtin's result, one Newton step with an exact residual, then the
// rounding decided exactly: with r == x - y^2 (exact), sqrt(x) is above
// y + ulp/2 iff r > y * ulp, below y - ulp/2 iff r <= -y * ulp (half ulp
// below a power of two).
double phal_m_sqrt_f64(double x) {
  if (isnan(x)) return x;
  if (x < 0.0) return phal_m_nan_f64();
  if (x == 0.0 || isinf(x)) return x;
  precise double xs = x;
  int adj = 0;
  if (xs < PHAL_D(0x07E0E7C9EEBC444AUL, 1.0e-270)) {
    xs = xs * PHAL_D(0x46B0000000000000UL, 3.2451855365842673e+32);
    adj = -54;
  } else if (xs > PHAL_D(0x7E70000000000000UL, 1.0715086071862673e+301)) {
    xs = xs * PHAL_D(0x3930000000000000UL, 3.0814879110195774e-33);
    adj = 54;
  }
  precise double y = sqrt(xs);
  precise double p;
  precise double pe;
  phal_m_two_prod_f64(y, y, p, pe);
  precise double r = (xs - p) - pe;
  y = y + r * (0.5 / y);
  for (int i = 0; i < 2; ++i) {
    uint64_t b = doubleBitsToUint64(y);
    precise double u = phal_m_pow2_f64(int(b >> 52) - 1075);
    precise double ud = (b & 0x000FFFFFFFFFFFFFUL) == 0UL ? 0.5 * u : u;
    phal_m_two_prod_f64(y, y, p, pe);
    r = (xs - p) - pe;
    if (r > y * u) {
      y = y + u;
    } else if (r <= -(y * ud)) {
      y = y - ud;
    }
  }
  if (adj < 0) y = y * PHAL_D(0x3C90000000000000UL, 5.5511151231257827e-17);
  if (adj > 0) y = y * PHAL_D(0x4350000000000000UL, 18014398509481984.0);
  return y;
}

// phal-block: phal_m_hypot_f64 phal_m_macros phal_m_two_prod_f64 phal_m_two_sum_f64 phal_m_sqrt_f64 phal_m_scale_f64 phal_m_inf_f64
// sqrt(a^2 + b^2) with the sum in double-double, a and b scaled near 1.
double phal_m_hypot_f64(double x, double y) {
  double ax = abs(x);
  double ay = abs(y);
  if (isinf(ax) || isinf(ay)) return phal_m_inf_f64();
  if (isnan(ax) || isnan(ay)) return x + y;
  double a = max(ax, ay);
  double b = min(ax, ay);
  if (b == 0.0 || b < a * PHAL_D(0x3C30000000000000UL, 8.6736173798840355e-19)) return a;
  int e = int(doubleBitsToUint64(a) >> 52) - 1023;
  precise double sa = phal_m_scale_f64(a, -e);
  precise double sb = phal_m_scale_f64(b, -e);
  precise double p;
  precise double pe;
  phal_m_two_prod_f64(sa, sa, p, pe);
  precise double q;
  precise double qe;
  phal_m_two_prod_f64(sb, sb, q, qe);
  precise double s;
  precise double se;
  phal_m_two_sum_f64(p, q, s, se);
  precise double sl = se + (pe + qe);
  precise double r = phal_m_sqrt_f64(s);
  precise double rr;
  precise double rre;
  phal_m_two_prod_f64(r, r, rr, rre);
  precise double res = ((s - rr) - rre) + sl;
  r = r + res / (2.0 * r);
  return phal_m_scale_f64(r, e);
}

// phal-block: phal_m_exp_pair_f64 phal_m_macros phal_m_exp_dd_f64 phal_m_fast_two_sum_f64 phal_m_two_prod_f64 phal_m_scale_f64
// For 1 <= x <= 711 (or 0 <= x for cosh): exp(x) == 2^k (eh + el) and
// exp(-x) == 2^k (ih + il), ih + il == 2^(-2k) / (eh + el).
void phal_m_exp_pair_f64(double x, PHAL_OUT(int) k, PHAL_OUT(double) eh,
                         PHAL_OUT(double) el, PHAL_OUT(double) ih,
                         PHAL_OUT(double) il) {
  precise double r;
  precise double tail;
  phal_m_exp_dd_f64(x, 0.0, k, r, tail);
  precise double a0;
  precise double ae;
  phal_m_fast_two_sum_f64(1.0, r, a0, ae);
  precise double a;
  precise double b;
  phal_m_fast_two_sum_f64(a0, ae + tail, a, b);
  precise double inv = 1.0 / a;
  precise double p;
  precise double pe;
  phal_m_two_prod_f64(inv, a, p, pe);
  precise double ir = ((1.0 - p) - pe) - inv * b;
  precise double inl = inv * ir;
  eh = a;
  el = b;
  ih = phal_m_scale_f64(inv, -2 * k);
  il = phal_m_scale_f64(inl, -2 * k);
}

// phal-block: phal_m_sinh_f64 phal_m_macros phal_m_exp_pair_f64 phal_m_two_sum_f64 phal_m_scale_f64 phal_m_inf_f64
// |x| < 1: the Taylor series to degree 19. Else (e^x - e^-x) / 2 in
// double-double.
double phal_m_sinh_f64(double x) {
  if (isnan(x) || x == 0.0) return x;
  double ax = abs(x);
  precise double y;
  if (ax > PHAL_D(0x4086380000000000UL, 711.0)) {
    y = phal_m_inf_f64();
  } else if (ax < 1.0) {
    precise double z = ax * ax;
    precise double s = PHAL_D(0x3C62F49B46814157UL, 8.2206352466243295e-18);
    s = fma(s, z, PHAL_D(0x3CE952C77030AD4AUL, 2.8114572543455206e-15));
    s = fma(s, z, PHAL_D(0x3D6AE7F3E733B81FUL, 7.6471637318198164e-13));
    s = fma(s, z, PHAL_D(0x3DE6124613A86D09UL, 1.6059043836821613e-10));
    s = fma(s, z, PHAL_D(0x3E5AE64567F544E4UL, 2.505210838544172e-08));
    s = fma(s, z, PHAL_D(0x3EC71DE3A556C734UL, 2.7557319223985893e-06));
    s = fma(s, z, PHAL_D(0x3F2A01A01A01A01AUL, 0.00019841269841269841));
    s = fma(s, z, PHAL_D(0x3F81111111111111UL, 0.0083333333333333332));
    s = fma(s, z, PHAL_D(0x3FC5555555555555UL, 0.16666666666666666));
    precise double az = ax * z;
    y = fma(az, s, ax);
  } else {
    int k;
    precise double eh;
    precise double el;
    precise double ih;
    precise double il;
    phal_m_exp_pair_f64(ax, k, eh, el, ih, il);
    precise double s;
    precise double se;
    phal_m_two_sum_f64(eh, -ih, s, se);
    precise double v = s + (se + (el - il));
    y = phal_m_scale_f64(v, k - 1);
  }
  return x < 0.0 ? -y : y;
}

// phal-block: phal_m_cosh_f64 phal_m_macros phal_m_exp_pair_f64 phal_m_two_sum_f64 phal_m_scale_f64 phal_m_inf_f64
// (e^x + e^-x) / 2 in double-double.
double phal_m_cosh_f64(double x) {
  if (isnan(x)) return x;
  double ax = abs(x);
  if (ax > PHAL_D(0x4086380000000000UL, 711.0)) return phal_m_inf_f64();
  int k;
  precise double eh;
  precise double el;
  precise double ih;
  precise double il;
  phal_m_exp_pair_f64(ax, k, eh, el, ih, il);
  precise double s;
  precise double se;
  phal_m_two_sum_f64(eh, ih, s, se);
  precise double v = s + (se + (el + il));
  return phal_m_scale_f64(v, k - 1);
}

// phal-block: phal_m_tanh_f64 phal_m_macros phal_m_expm1_dd_f64 phal_m_two_sum_f64 phal_m_two_prod_f64
// expm1(2|x|) / (expm1(2|x|) + 2) in double-double; +-1 beyond 22.
double phal_m_tanh_f64(double x) {
  if (isnan(x) || x == 0.0) return x;
  double ax = abs(x);
  precise double y;
  if (ax > PHAL_D(0x4036000000000000UL, 22.0)) {
    y = 1.0;
  } else if (ax < PHAL_D(0x3E40000000000000UL, 7.4505805969238281e-09)) {
    y = ax;
  } else {
    precise double eh;
    precise double el;
    phal_m_expm1_dd_f64(2.0 * ax, eh, el);
    precise double dh;
    precise double de;
    phal_m_two_sum_f64(2.0, eh, dh, de);
    precise double dl = de + el;
    precise double t = eh / dh;
    precise double p;
    precise double pe;
    phal_m_two_prod_f64(t, dh, p, pe);
    precise double r = (((eh - p) - pe) + el) - t * dl;
    y = t + r / dh;
  }
  return x < 0.0 ? -y : y;
}

// phal-block: phal_m_pow_f64 phal_m_macros phal_m_log_dd_f64 phal_m_exp_dd_f64 phal_m_two_prod_f64 phal_m_fast_two_sum_f64 phal_m_scale_f64 phal_m_nan_f64 phal_m_inf_f64
// exp(y * log|x|) with log in double-double (relative error below 2^-68) and
// the product in double-double; special cases per C99 F.10.4.4.
double phal_m_pow_f64(double x, double y) {
  if (y == 0.0 || x == 1.0) return 1.0;
  if (isnan(x) || isnan(y)) return x + y;
  double ax = abs(x);
  double inf = phal_m_inf_f64();
  bool yint = false;
  bool yodd = false;
  if (!isinf(y)) {
    yint = floor(y) == y;
    if (yint && abs(y) < PHAL_D(0x4340000000000000UL, 9007199254740992.0)) {
      precise double hy = 0.5 * y;
      yodd = floor(hy) != hy;
    }
  }
  if (isinf(y)) {
    if (ax == 1.0) return 1.0;
    return (ax > 1.0) == (y > 0.0) ? inf : 0.0;
  }
  bool xneg = (doubleBitsToUint64(x) >> 63) != 0UL;
  if (x == 0.0) {
    if (y < 0.0) return (yodd && xneg) ? -inf : inf;
    return yodd ? x : 0.0;
  }
  if (isinf(x)) {
    if (!xneg) return y < 0.0 ? 0.0 : inf;
    if (y < 0.0) return yodd ? -0.0 : 0.0;
    return yodd ? -inf : inf;
  }
  if (xneg && !yint) return phal_m_nan_f64();
  precise double sign = (xneg && yodd) ? -1.0 : 1.0;
  precise double lh;
  precise double ll;
  phal_m_log_dd_f64(ax, lh, ll);
  precise double zh;
  precise double ze;
  phal_m_two_prod_f64(y, lh, zh, ze);
  if (zh > PHAL_D(0x4086300000000000UL, 710.0)) return sign * inf;
  if (zh < PHAL_D(0xC087500000000000UL, -746.0)) return sign * 0.0;
  precise double zl = fma(y, ll, ze);
  int k;
  precise double r;
  precise double tail;
  phal_m_exp_dd_f64(zh, zl, k, r, tail);
  precise double hi;
  precise double lo;
  phal_m_fast_two_sum_f64(1.0, r, hi, lo);
  precise double v = hi + (lo + tail);
  return sign * phal_m_scale_f64(v, k);
}
