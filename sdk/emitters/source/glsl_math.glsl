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
// value in decimal for the reader; tables are PHAL_TABLE_BEGIN(type, name,
// size) ... PHAL_TABLE_END; out parameters are PHAL_OUT(type); casts are
// constructor calls; no recursion, pointers or vectors; only unsigned
// integers overflow. The macros are defined by the first block below when
// the shim has not defined them.
//
// Blocks: each function and table follows a comment line starting
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
//   log      x == 2^e m, log1p(m c - 1) - log(c) + e ln2 with c ~ 1/m from
//            a 128-entry table (log(c) in dd), log1p by Taylor to degree 12
//            on |t| <= 2^-7; the result in dd (relative error < 2^-70).
//   log1p    |x| < 2^-7: the series directly; else log of 1 + x in dd.
//   sin cos  Cody-Waite by pi/2 (three doubles) below 2^30, Payne-Hanek
//   tan      (192 bits of 2/pi from a 1216-bit table, 64-bit integer
//            products) above; Taylor to degree 19/18 on |r| <= pi/4 in dd;
//            tan as a dd quotient.
//   sinh     |x| < 1: Taylor to degree 19; else (e^x - e^-x)/2 in dd.
//   cosh     (e^x + e^-x)/2 in dd.
//   tanh     expm1(2|x|) / (expm1(2|x|) + 2) in dd; x below 2^-27; +-1
//            beyond 22.
//   atan     atan(j/16) from a table plus atan((x - c)/(1 + c x)) (|u| <=
//   atan2    1/32, Taylor to degree 15), reflected through pi/2 and pi in
//            dd; atan2 scales its operands near 1 first.
//   erf      |x| < 1/4: Maclaurin to degree 19; below 6: Taylor to degree
//            12 around 46 centers 1/8 apart (tabulated); then +-1.
//   cbrt     Newton's iteration on the significand times 2^(e mod 3), a
//            last step on the exactly computed residual.
//   sqrt     the builtin, a Newton step, then the rounding decided exactly
//            from the fma residual x - y^2 (correctly rounded).
//   hypot    sqrt of the dd sum of squares after scaling near 1, with a
//            dd correction step.
//   pow      exp(y log|x|) with log in dd and y log|x| in dd.
// Tables: 2/pi bits, log (384 words), atan (34), erf (690); coefficients
// are exact Taylor coefficients or values computed to 2400 bits (mpmath).
//
// Measured bounds (GlslMath* tests on the host: 2^18 random inputs per
// function over its whole domain plus the edge values, errors in ulp of the
// result against glibc's long double functions; worst of two seeds), with
// the bound the tests enforce. Run on Mesa's lavapipe (fma unfused,
// denormals flushed), 2^16 inputs measured within 0.86 ulp for results in
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
//   erf        0.529 (1)
//   cbrt       0.500 (1)
//   sqrt       0.500 (0.5)  correctly rounded
//   atan2      0.501 (1)
//   pow        0.737 (1)
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

// phal-block: phal_m_log_table phal_m_macros
// c ~ 1/m for m in [1 + i/128, 1 + (i+1)/128), then -log(c) in double-double.
PHAL_TABLE_BEGIN(uint64_t, phal_m_log_table, 384)
    0x3FF0000000000000UL, 0x0000000000000000UL, 0x0000000000000000UL,
    0x3FEFA11CAA01FA12UL, 0x3F87DC475F810A69UL, 0x3C274944BC161072UL,
    0x3FEF6310ACA0DBB5UL, 0x3F93CEA44346A584UL, 0xBC2865AD48159D00UL,
    0x3FEF25F644230AB5UL, 0x3F9B9FC027AF919AUL, 0xBC390AE69229DC86UL,
    0x3FEEE9C7F8458E02UL, 0x3FA1B0D98923D97FUL, 0xBC474D7444DD6241UL,
    0x3FEEAE807ABA01EBUL, 0x3FA58A5BAFC8E4D3UL, 0xBBFCAB8569C56E40UL,
    0x3FEE741AA59750E4UL, 0x3FA95C830EC8E3F2UL, 0x3C3EB41D00A417E9UL,
    0x3FEE3A9179DC1A73UL, 0x3FAD276B8ADB0B56UL, 0x3C4078F14C95FF53UL,
    0x3FEE01E01E01E01EUL, 0x3FB075983598E471UL, 0x3C5006D2999E22DCUL,
    0x3FEDCA01DCA01DCAUL, 0x3FB253F62F0A1417UL, 0x3C21F6D34E01D981UL,
    0x3FED92F2231E7F8AUL, 0x3FB42EDCBEA646EEUL, 0xBC5511583653349BUL,
    0x3FED5CAC807572B2UL, 0x3FB60658A93750C4UL, 0xBC4F108B1D8436D3UL,
    0x3FED272CA3FC5B1AUL, 0x3FB7DA766D7B12D0UL, 0x3C4A2240644D7DA2UL,
    0x3FECF26E5C44BFC6UL, 0x3FB9AB42462033AEUL, 0xBC4A099E1C184E8EUL,
    0x3FECBE6D9601CBE7UL, 0x3FBB78C82BB0EDA0UL, 0xBC53EF0E61F9B03CUL,
    0x3FEC8B265AFB8A42UL, 0x3FBD4313D66CB35DUL, 0x3C5B90DD951D90FAUL,
    0x3FEC5894D10D4986UL, 0x3FBF0A30C01162A4UL, 0x3C48BE64B8B7759BUL,
    0x3FEC26B5392EA01CUL, 0x3FC0671512CA596FUL, 0xBC52F39B81479B67UL,
    0x3FEBF583EE868D8BUL, 0x3FC14785846742ACUL, 0x3C394409F1D3F83AUL,
    0x3FEBC4FD65883E7BUL, 0x3FC2266F190A5ACDUL, 0xBC6DAB840E7F6177UL,
    0x3FEB951E2B18FF23UL, 0x3FC303D718E47FD5UL, 0xBC6B5AE71F658247UL,
    0x3FEB65E2E3BEEE05UL, 0x3FC3DFC2B0ECC62AUL, 0x3C6BA62B8C13F7F4UL,
    0x3FEB37484AD806CEUL, 0x3FC4BA36F39A55E5UL, 0xBC6F767E433C98AAUL,
    0x3FEB094B31D922A4UL, 0x3FC59338D9982085UL, 0x3C68D16EAABA9419UL,
    0x3FEADBE87F94905EUL, 0x3FC66ACD4272AD51UL, 0xBC49201C9C3D5165UL,
    0x3FEAAF1D2F87EBFDUL, 0x3FC740F8F54037A3UL, 0x3C56D9BF9D57B326UL,
    0x3FEA82E65130E159UL, 0x3FC815C0A14357E9UL, 0x3C5141B7F8C5FA9EUL,
    0x3FEA574107688A4AUL, 0x3FC8E928DE886D41UL, 0x3C42589EB96A6240UL,
    0x3FEA2C2A87C51CA0UL, 0x3FC9BB362E7DFB85UL, 0xBC551439C1FF83E7UL,
    0x3FEA01A01A01A01AUL, 0x3FCA8BECFC882F19UL, 0xBC5A8C37918C39EBUL,
    0x3FE9D79F176B682DUL, 0x3FCB5B519E8FB5A6UL, 0xBC6D5D8023E61E5FUL,
    0x3FE9AE24EA5510DAUL, 0x3FCC2968558C18C2UL, 0x3C36108E3AE024ACUL,
    0x3FE9852F0D8EC0FFUL, 0x3FCCF6354E09C5DDUL, 0x3C6339A07D55B696UL,
    0x3FE95CBB0BE377AEUL, 0x3FCDC1BCA0ABEC7BUL, 0x3C5C698A33316DFBUL,
    0x3FE934C67F9B2CE6UL, 0x3FCE8C0252AA5A60UL, 0xBC3DC074737F9135UL,
    0x3FE90D4F120190D5UL, 0x3FCF550A564B7B37UL, 0xBC613A09202FE73DUL,
    0x3FE8E6527AF1373FUL, 0x3FD00E6C45AD501DUL, 0xBC63B9568FF6FEADUL,
    0x3FE8BFCE8062FF3AUL, 0x3FD071B85FCD590DUL, 0x3C608B83FCBDEF40UL,
    0x3FE899C0F601899CUL, 0x3FD0D46B579AB74BUL, 0x3C721F640E1E5EC9UL,
    0x3FE87427BCC092B9UL, 0x3FD136870293A8B0UL, 0x3C686CC531DBA494UL,
    0x3FE84F00C2780614UL, 0x3FD1980D2DD4236FUL, 0xBC702C2E4F1B2EB9UL,
    0x3FE82A4A0182A4A0UL, 0x3FD1F8FF9E48A2F3UL, 0xBC693FBF3418960DUL,
    0x3FE8060180601806UL, 0x3FD2596010DF763AUL, 0xBC49EED8AE0EBD3CUL,
    0x3FE7E225515A4F1DUL, 0x3FD2B9303AB89D25UL, 0xBC585AD7F614AB51UL,
    0x3FE7BEB3922E017CUL, 0x3FD31871C9544185UL, 0xBC6EA3598981366FUL,
    0x3FE79BAA6BB6398BUL, 0x3FD3772662BFD85CUL, 0x3C602A7589FBA088UL,
    0x3FE77908119AC60DUL, 0x3FD3D54FA5C1F710UL, 0x3C553668E578D9CDUL,
    0x3FE756CAC201756DUL, 0x3FD432EF2A04E813UL, 0xBC683262E2B59206UL,
    0x3FE734F0C541FE8DUL, 0x3FD49006804009D0UL, 0xBC4BFF0D07C5DF6DUL,
    0x3FE713786D9C7C09UL, 0x3FD4EC9732600269UL, 0xBC71AA87D977DC5EUL,
    0x3FE6F26016F26017UL, 0x3FD548A2C3ADD263UL, 0xBC758CE7BF1846EEUL,
    0x3FE6D1A62681C861UL, 0x3FD5A42AB0F4CFE2UL, 0xBC7C6BCB7DEE9A3DUL,
    0x3FE6B1490AA31A3DUL, 0x3FD5FF3070A793D4UL, 0xBC7063077D7E37B7UL,
    0x3FE691473A88D0C0UL, 0x3FD659B57303E1F2UL, 0x3C1DB0AF8EFB83C7UL,
    0x3FE6719F3601671AUL, 0x3FD6B3BB2235943DUL, 0x3C7957A93326784DUL,
    0x3FE6524F853B4AA3UL, 0x3FD70D42E2789236UL, 0x3C7EE99BF7143954UL,
    0x3FE63356B88AC0DEUL, 0x3FD7664E1239DBCFUL, 0xBC6D6D5D64F5DAF8UL,
    0x3FE614B36831AE94UL, 0x3FD7BEDE0A37AFBFUL, 0xBC76783CB9801A5BUL,
    0x3FE5F66434292DFCUL, 0x3FD816F41DA0D495UL, 0x3C776DC35FB48FE4UL,
    0x3FE5D867C3ECE2A5UL, 0x3FD86E919A330BA1UL, 0xBC7700C9D2029045UL,
    0x3FE5BABCC647FA91UL, 0x3FD8C5B7C858B48BUL, 0x3C7D754B0205FA6CUL,
    0x3FE59D61F123CCAAUL, 0x3FD91C67EB45A83EUL, 0x3C65E3EA3B96A3DFUL,
    0x3FE5805601580560UL, 0x3FD972A341135159UL, 0xBC75A3F62DB48F27UL,
    0x3FE56397BA7C52E2UL, 0x3FD9C86B02DC0862UL, 0x3C77E81149622BDFUL,
    0x3FE54725E6BB82FEUL, 0x3FDA1DC064D5B995UL, 0x3C7A0128698BA0B8UL,
    0x3FE52AFF56A8054BUL, 0x3FDA72A4966BD9E9UL, 0x3C7529DAC69F61F1UL,
    0x3FE50F22E111C4C5UL, 0x3FDAC718C258B0E5UL, 0x3C7682C7ADE8DEE3UL,
    0x3FE4F38F62DD4C9BUL, 0x3FDB1B1E0EBDFC5AUL, 0xBC50EE1A7DD74EA6UL,
    0x3FE4D843BEDC2C4CUL, 0x3FDB6EB59D3CF35CUL, 0x3C71524332CD95C4UL,
    0x3FE4BD3EDDA68FE1UL, 0x3FDBC1E08B0DAD0AUL, 0xBC5385E3E3EA99A8UL,
    0x3FE4A27FAD76014AUL, 0x3FDC149FF115F027UL, 0x3C646868DE7F39F6UL,
    0x3FE4880522014880UL, 0x3FDC66F4E3FF6FF9UL, 0xBC582947258B6889UL,
    0x3FE46DCE34596066UL, 0x3FDCB8E0744D7ACAUL, 0x3C7C5BBC32EF5AEBUL,
    0x3FE453D9E2C776CAUL, 0x3FDD0A63AE721E64UL, 0x3C64ACCE112C40F2UL,
    0x3FE43A2730ABEE4DUL, 0x3FDD5B7F9AE2C684UL, 0x3C64841807B53F96UL,
    0x3FE420B5265E5951UL, 0x3FDDAC353E2C5955UL, 0xBC7ABC65A3F2F204UL,
    0x3FE40782D10E6566UL, 0x3FDDFC859906D5B5UL, 0x3C751E1399F96398UL,
    0x3FE3EE8F42A5AF07UL, 0x3FDE4C71A8687704UL, 0xBC734C36E0F052B9UL,
    0x3FE3D5D991AA75C6UL, 0x3FDE9BFA659861F5UL, 0xBC7DE45038241ECFUL,
    0x3FE3BD60D9232955UL, 0x3FDEEB20C640DDF3UL, 0xBC781E47141B8404UL,
    0x3FE3A524387AC822UL, 0x3FDF39E5BC811E5DUL, 0x3C4200E221139873UL,
    0x3FE38D22D366088EUL, 0x3FDF884A36FE9EC1UL, 0x3C7618AE4F008400UL,
    0x3FE3755BD1C945EEUL, 0x3FDFD64F20F61571UL, 0xBC1B615859D5A349UL,
    0x3FE35DCE5F9F2AF8UL, 0x3FE011FAB125FF8AUL, 0x3C84043750211778UL,
    0x3FE34679ACE01346UL, 0x3FE0389EEFCE633CUL, 0x3C48AAE29A41BA4AUL,
    0x3FE32F5CED6A1DFAUL, 0x3FE05F14BD26459CUL, 0x3C5935B8EE4F9EFEUL,
    0x3FE3187758E9EBB6UL, 0x3FE0855C884B450EUL, 0x3C8785826E49F318UL,
    0x3FE301C82AC40260UL, 0x3FE0AB76BECE14D2UL, 0x3C702936CABAC09AUL,
    0x3FE2EB4EA1FED14BUL, 0x3FE0D163CCB9D6B8UL, 0x3C46119595D0F3C3UL,
    0x3FE2D50A012D50A0UL, 0x3FE0F7241C9B497DUL, 0x3C8BA8443B9DB19DUL,
    0x3FE2BEF98E5A3711UL, 0x3FE11CB81787CCF8UL, 0x3C7DC70F563F9920UL,
    0x3FE2A91C92F3C105UL, 0x3FE1422025243D45UL, 0x3C87E5E3B6A496ECUL,
    0x3FE293725BB804A5UL, 0x3FE1675CABABA60EUL, 0xBC7CB19C15477C8EUL,
    0x3FE27DFA38A1CE4DUL, 0x3FE18C6E0FF5CF07UL, 0xBC79A6BAF4F4E637UL,
    0x3FE268B37CD60127UL, 0x3FE1B154B57DA29EUL, 0x3C72770A5C124AB5UL,
    0x3FE2539D7E9177B2UL, 0x3FE1D610FE677003UL, 0x3C7D27563647963DUL,
    0x3FE23EB79717605BUL, 0x3FE1FAA34B87094CUL, 0x3C8C42F71EF43276UL,
    0x3FE22A0122A0122AUL, 0x3FE21F0BFC65BEECUL, 0xBC6C24F0C9187C92UL,
    0x3FE21579804855E6UL, 0x3FE2434B6F483934UL, 0xBC6BEBB8CF0F6D11UL,
    0x3FE2012012012012UL, 0x3FE26762013430E0UL, 0xBC786A95781C6727UL,
    0x3FE1ECF43C7FB84CUL, 0x3FE28B500DF60783UL, 0x3C3813F3F4AAA9A3UL,
    0x3FE1D8F5672E4ABDUL, 0x3FE2AF15F02640ACUL, 0x3C7ED8322925675AUL,
    0x3FE1C522FC1CE059UL, 0x3FE2D2B4012EDC9DUL, 0x3C89AE9D3664E355UL,
    0x3FE1B17C67F2BAE3UL, 0x3FE2F62A99509546UL, 0xBC87DCBCC6300133UL,
    0x3FE19E0119E0119EUL, 0x3FE3197A0FA7FE6AUL, 0x3C6F6348FB97128FUL,
    0x3FE18AB083902BDBUL, 0x3FE33CA2BA328994UL, 0x3C81C6BA66FD0910UL,
    0x3FE1778A191BD684UL, 0x3FE35FA4EDD36EA0UL, 0x3C7727D468096436UL,
    0x3FE1648D50FC3201UL, 0x3FE38280FE58797FUL, 0xBC6756F4D8A9B974UL,
    0x3FE151B9A3FDD5C9UL, 0x3FE3A5373E7EBDF9UL, 0x3C75CE11148E1124UL,
    0x3FE13F0E8D344724UL, 0x3FE3C7C7FFF73206UL, 0xBC3E80DB7025BED1UL,
    0x3FE12C8B89EDC0ACUL, 0x3FE3EA33936B2F5BUL, 0x3C4F66E975EC9F52UL,
    0x3FE11A3019A74826UL, 0x3FE40C7A4880DCEAUL, 0x3C513C8B79FF2789UL,
    0x3FE107FBBE011080UL, 0x3FE42E9C6DDF80BFUL, 0xBC84D411C2CD7CF1UL,
    0x3FE0F5EDFAB325A2UL, 0x3FE4509A5133BB0AUL, 0xBC85701D7AD284A5UL,
    0x3FE0E40655826011UL, 0x3FE472743F33AAADUL, 0xBC3A930FED5D6B7EUL,
    0x3FE0D24456359E3AUL, 0x3FE4942A83A2FC07UL, 0x3C72A18A88CA56B5UL,
    0x3FE0C0A7868B4171UL, 0x3FE4B5BD6956E273UL, 0xBC82C7A06BEEA772UL,
    0x3FE0AF2F722EECB5UL, 0x3FE4D72D3A39FD01UL, 0x3C701A9A829C011BUL,
    0x3FE09DDBA6AF8360UL, 0x3FE4F87A3F5026E9UL, 0xBC868CA8B1BCEA9DUL,
    0x3FE08CABB37565E2UL, 0x3FE519A4C0BA3446UL, 0x3C8A332128E4A77FUL,
    0x3FE07B9F29B8EAE2UL, 0x3FE53AAD05B99B7CUL, 0xBC67722C14B894E2UL,
    0x3FE06AB59C7912FBUL, 0x3FE55B9354B40BCEUL, 0xBC41F342E541A63DUL,
    0x3FE059EEA0727586UL, 0x3FE57C57F336F191UL, 0x3C81EAC5C4377E6EUL,
    0x3FE04949CC1664C5UL, 0x3FE59CFB25FAE87FUL, 0xBC6BB94822ACE357UL,
    0x3FE038C6B78247FCUL, 0x3FE5BD7D30E71C73UL, 0xBBCC9649352E8E44UL,
    0x3FE02864FC7729E9UL, 0x3FE5DDDE57149923UL, 0x3C40FA37D75EF285UL,
    0x3FE0182436517A37UL, 0x3FE5FE1EDAD18919UL, 0x3C792E93DE3CE483UL,
    0x3FF0000000000000UL, 0x0000000000000000UL, 0x0000000000000000UL
PHAL_TABLE_END

// phal-block: phal_m_log_dd_f64 phal_m_macros phal_m_log_table phal_m_two_prod_f64 phal_m_two_sum_f64 phal_m_fast_two_sum_f64 phal_m_log1p_small_f64
// log(x) == h + l (relative error below 2^-70) for finite x > 0: x ==
// 2^e * m, m in [1, 2) (or [1 - 2^-8, 1) near 2), log(x) == e * ln2 -
// log(c) + log1p(m * c - 1) with c ~ 1 / m from a 128-entry table.
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
  b = (b & 0x000FFFFFFFFFFFFFUL) | 0x3FF0000000000000UL;
  int i = int((b >> 45) & 127UL);
  m = uint64BitsToDouble(b);
  if (i == 127) {
    m = 0.5 * m;
    e = e + 1;
  }
  double c = uint64BitsToDouble(phal_m_log_table[3 * i]);
  double ch = uint64BitsToDouble(phal_m_log_table[3 * i + 1]);
  double cl = uint64BitsToDouble(phal_m_log_table[3 * i + 2]);
  precise double p;
  precise double pe;
  phal_m_two_prod_f64(m, c, p, pe);
  precise double th = p - 1.0;
  precise double sh;
  precise double sl;
  phal_m_log1p_small_f64(th, pe, sh, sl);
  precise double ed = double(e);
  precise double a;
  precise double ae;
  phal_m_two_sum_f64(ed * ln2_hi, ch, a, ae);
  precise double s;
  precise double se;
  phal_m_two_sum_f64(a, sh, s, se);
  precise double lo = sl + (ae + se + fma(ed, ln2_lo, cl));
  phal_m_fast_two_sum_f64(s, lo, h, l);
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
// The bits of 2/pi after the binary point, 64 per word, after a zero word.
PHAL_TABLE_BEGIN(uint64_t, phal_m_two_over_pi, 20)
    0x0000000000000000UL, 0xA2F9836E4E441529UL, 0xFC2757D1F534DDC0UL,
    0xDB6295993C439041UL, 0xFE5163ABDEBBC561UL, 0xB7246E3A424DD2E0UL,
    0x06492EEA09D1921CUL, 0xFE1DEB1CB129A73EUL, 0xE88235F52EBB4484UL,
    0xE99C7026B45F7E41UL, 0x3991D639835339F4UL, 0x9C845F8BBDF9283BUL,
    0x1FF897FFDE05980FUL, 0xEF2F118B5A0A6D1FUL, 0x6D367ECF27CB09B7UL,
    0x4F463F669E5FEA2DUL, 0x7527BAC7EBE5F17BUL, 0x3D0739F78A5292EAUL,
    0x6BFB5FB11F8D5D08UL, 0x56033046FC7B6BABUL
PHAL_TABLE_END


// phal-block: phal_m_window_f64 phal_m_macros phal_m_two_over_pi
// 64 bits of phal_m_two_over_pi from word w, bit sh (0 <= sh < 64).
uint64_t phal_m_window_f64(int w, int sh) {
  uint64_t v = phal_m_two_over_pi[w] << sh;
  if (sh != 0) v = v | (phal_m_two_over_pi[w + 1] >> (64 - sh));
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

// phal-block: phal_m_atan_table phal_m_macros
// atan(j/16) in double-double, j = 0..16.
PHAL_TABLE_BEGIN(uint64_t, phal_m_atan_table, 34)
    0x0000000000000000UL, 0x0000000000000000UL,
    0x3FAFF55BB72CFDEAUL, 0xBC3C934D86D23F1DUL,
    0x3FBFD5BA9AAC2F6EUL, 0xBC4CD37686760C17UL,
    0x3FC7B97B4BCE5B02UL, 0x3C5347B0B4F881CAUL,
    0x3FCF5B75F92C80DDUL, 0x3C68AB6E3CF7AFBDUL,
    0x3FD362773707EBCCUL, 0xBC6963A544B672D8UL,
    0x3FD6F61941E4DEF1UL, 0xBC7C63AAE6F6E918UL,
    0x3FDA64EEC3CC23FDUL, 0xBC724DEC1B50B7FFUL,
    0x3FDDAC670561BB4FUL, 0x3C7A2B7F222F65E2UL,
    0x3FE0657E94DB30D0UL, 0xBC7D5B495F6349E6UL,
    0x3FE1E00BABDEFEB4UL, 0xBC5928DF287A668FUL,
    0x3FE345F01CCE37BBUL, 0x3C81021137C71102UL,
    0x3FE4978FA3269EE1UL, 0x3C72419A87F2A458UL,
    0x3FE5D58987169B18UL, 0x3C60028E4BC5E7CAUL,
    0x3FE700A7C5784634UL, 0xBC78C34D25AADEF6UL,
    0x3FE819D0B7158A4DUL, 0xBC7BF76229D3B917UL,
    0x3FE921FB54442D18UL, 0x3C81A62633145C07UL
PHAL_TABLE_END


// phal-block: phal_m_atan_kernel_f64 phal_m_macros phal_m_atan_table phal_m_two_prod_f64 phal_m_two_sum_f64 phal_m_fast_two_sum_f64
// atan(n / d) == h + l for 0 <= n <= d, d in [1, 2): atan(c) from a table
// at c == j/16 nearest n/d, plus atan(u), u == (n - c d) / (d + c n) in
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
  double th = uint64BitsToDouble(phal_m_atan_table[2 * j]);
  double tl = uint64BitsToDouble(phal_m_atan_table[2 * j + 1]);
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

// phal-block: phal_m_erf_table phal_m_macros
// Around x0 = (2j + 5)/16, j = 0..45: erf(x0) and erf'(x0) in double-double,
// then the Taylor coefficients of degree 2..12.
PHAL_TABLE_BEGIN(uint64_t, phal_m_erf_table, 690)
    0x3FD5DA9F415FF23FUL, 0xBC4A72E51E19194BUL, 0x3FF05FD3ECBEC298UL,
    0xBC9F17D49717ADF9UL, 0xBFD477C8E7EE733DUL, 0xBFD1917B60ACAB73UL,
    0x3FC322A728D4ED12UL, 0x3FB04C50A9CD2C12UL, 0xBFA7CE764EEDDD86UL,
    0xBF868AAC5801171DUL, 0x3F862AA895F51CD3UL, 0x3F56C003C3CEDB0DUL,
    0xBF6079502DBBB32AUL, 0xBF1D9C7CBB792F9CUL, 0x3F345A995B165D9CUL,
    0x3FDDB081CE6E2A48UL, 0xBC77FF0A3296D9CCUL, 0x3FEDD167C4CF9D2AUL,
    0x3C844F2832F90A99UL, 0xBFDA173ACC35A985UL, 0xBFC889A80F4AD955UL,
    0x3FC6C2EEA0D17B39UL, 0x3F9B0645438E5D17UL, 0xBFAA3FD9FCBB6D6DUL,
    0x3F2060B78C935B8EUL, 0x3F8678B51A9C4B0AUL, 0xBF51E03BFC8EEBB3UL,
    0xBF5E653535CAAAB8UL, 0x3F355F31366D2908UL, 0x3F30DCF14425C724UL,
    0x3FE25B8A88B6DD7FUL, 0x3C89534A3B5BD215UL, 0x3FEA5074E2157620UL,
    0x3C7FAD8C0EF6FAECUL, 0xBFDD9A837E5824E4UL, 0xBFB9C41D1D5FAE55UL,
    0x3FC75BEBC1B18D1CUL, 0xBF86410AD9332666UL, 0xBFA7DF8890B11FA7UL,
    0x3F84A54816D3608AUL, 0x3F818F36EB18F3D7UL, 0xBF68D661C030E173UL,
    0xBF53628EDE23DE1DUL, 0x3F4438EB2B3C46D1UL, 0x3F1FD3C13DF9426FUL,
    0x3FE569243D2B3A9BUL, 0x3C78EEF7012E8DF5UL, 0x3FE681FF24B4AB04UL,
    0xBC5DBA6493354C66UL, 0xBFDEF2BED2786B25UL, 0xBF8A4254557D722FUL,
    0x3FC532415C267962UL, 0xBFA558B4C55A835CUL, 0xBFA1B7AD5B777F1BUL,
    0x3F91201D3BD0E758UL, 0x3F72995E3A88A890UL, 0xBF70294C3E93CDB0UL,
    0xBF3159644A564E28UL, 0x3F463DAF9B385638UL, 0xBF03BEEB4A38DA7CUL,
    0x3FE7FB9BFAED8078UL, 0x3C766CF14BCAD032UL, 0x3FE2A8DCEDE3673BUL,
    0xBC77378E2C70325DUL, 0xBFDE5267029187C0UL, 0x3FAFE0796BB9D05AUL,
    0x3FC0FA23021AD0ACUL, 0xBFAFA21EBCA76761UL, 0xBF931546D5C4EDB4UL,
    0x3F937E5469EFB7A6UL, 0x3F2097966E2E87E3UL, 0xBF6E82AB020887A7UL,
    0x3F4318270C11B2D8UL, 0x3F412652E433D763UL, 0xBF24DC9BD651794DUL,
    0x3FEA1551A16AAEAFUL, 0x3C6A558A46DF5F67UL, 0x3FDDFCA26F5BBF88UL,
    0xBC6DDCBAF85587B9UL, 0xBFDC1CD84866038FUL, 0x3FBE4C9975DA0987UL,
    0x3FB747E31BF47AF3UL, 0xBFB1D1F00109E42AUL, 0xBF647654175CEB42UL,
    0x3F91A817C594B8CBUL, 0xBF6CB8ACD699CCA6UL, 0xBF657B72BF874DB6UL,
    0x3F524493DCA8B643UL, 0x3F2F556774C6A909UL, 0xBF2B09EC5C7FE756UL,
    0x3FEBBEF0FBDE6221UL, 0xBC8322C1148E0D48UL, 0x3FD75A91A7F4D2EDUL,
    0x3C56EB826A9DF857UL, 0xBFD8D03AC274201CUL, 0x3FC3954778D6A0DFUL,
    0x3FA88E0F7B183FC6UL, 0xBFB0F7C15F75EE13UL, 0x3F85E22CFA1AAB51UL,
    0x3F89AD28C5557C22UL, 0xBF7704EC5D29FC83UL, 0xBF523360304F19BAUL,
    0x3F543CA3FCDF057AUL, 0xBF0DCB97A9E067EEUL, 0xBF2735E26C243666UL,
    0x3FED0580B2CFD249UL, 0x3C84FCA6318DFEE9UL, 0x3FD1A0DC51A9934DUL,
    0xBC6CA89D2D78FBA4UL, 0xBFD4EF05A0F95EEBUL, 0x3FC5648B5DC47417UL,
    0x3F840FBABA44504CUL, 0xBFAC0DB89D0A41A4UL, 0x3F9388C3EC056942UL,
    0x3F7AECB7463CF446UL, 0xBF78BCA53327E075UL, 0x3F34ADD4A8239F4BUL,
    0x3F505CE4ABD0FF4FUL, 0xBF3183F198A0BA0DUL, 0xBF19CD1A9B1691D3UL,
    0x3FEDF85EA8DB188EUL, 0xBC8F71E8254D11A9UL, 0x3FC9CB5BD549B111UL,
    0xBC4973E73CAA1EDEUL, 0xBFD0ED7443F85C33UL, 0x3FC5066CDA84BBA9UL,
    0xBF9419FA10B6ED7DUL, 0xBFA3F41761D5A941UL, 0x3F96D1D724BAAAE4UL,
    0x3F4E377F5703F7FFUL, 0xBF74CC916AD63C27UL, 0x3F5553EF0D12719FUL,
    0x3F426240F5597EE0UL, 0xBF36BBF0FFFB70D1UL, 0xBEE320CF628B824BUL,
    0x3FEEA7730ED0BBB9UL, 0x3C82C5BD7CE1388BUL, 0x3FC24A7B84D38971UL,
    0x3C6AA0C5E788ED5FUL, 0xBFCA4B118EF01593UL, 0x3FC319C7A75F9187UL,
    0xBFA3DB5BED47FAF6UL, 0xBF97019BDA6C2FDDUL, 0x3F959D3AA402C32EUL,
    0xBF6B324EAB9C87A9UL, 0xBF6B4774D37D0DD7UL, 0x3F5C01377485A844UL,
    0x3F1A5DB5F627B4CDUL, 0xBF340D9C429B88A4UL, 0x3F0E720D9229B5E6UL,
    0x3FEF21C9F12F0677UL, 0xBC57EFE429672266UL, 0x3FB92470A61B6965UL,
    0x3C5C6ACD40CEE350UL, 0xBFC3A47801C56A57UL, 0x3FC0453F90D3BD35UL,
    0xBFA8A7C6A239217BUL, 0xBF8075C088031EE3UL, 0x3F916F9C9C127B80UL,
    0xBF774C2FC9BDFE97UL, 0xBF5760C522BD5BEBUL, 0x3F5A3CDB656ADB43UL,
    0xBF302C3C1AB0B16DUL, 0xBF292892013C6FC1UL, 0x3F16E7B2690FE5BCUL,
    0x3FEF74A6D9A38383UL, 0x3C8C33A329423946UL, 0x3FB0BF97E95F2A64UL,
    0xBC5446051F6FEF83UL, 0xBFBC435059D09788UL, 0x3FBA3687C1EAF1ADUL,
    0xBFA9647A30B16824UL, 0x3F66981061DFBB09UL, 0x3F87E8755DA47040UL,
    0xBF79BE731FDAB95DUL, 0x3F23A95AE0A75546UL, 0x3F5319F780E962D7UL,
    0xBF3B88DD51A4F7AFUL, 0xBF1037F168A8E0C6UL, 0x3F153FC5E85F1D16UL,
    0x3FEFAB0DD89D1309UL, 0xBC8AE61BD9DB1BABUL, 0x3FA5A08E85AF27E0UL,
    0x3C4E4F9CFC8C2382UL, 0xBFB399812926BC23UL, 0x3FB4140EFB719CB0UL,
    0xBFA7535A61A4193DUL, 0x3F8374C88C7E6ABDUL, 0x3F7A40709E010E77UL,
    0xBF76DC078888EFA7UL, 0x3F52EE6D200993AFUL, 0x3F444F175E22A161UL,
    0xBF3C2FB051C92966UL, 0x3F0523035ED39813UL, 0x3F0BC7B6663F109AUL,
    0x3FEFCDACCA0BFB73UL, 0xBC82C33D88729E43UL, 0x3F9B1160991FF737UL,
    0xBC2D940A504353B9UL, 0xBFAA38D59456F77DUL, 0x3FAD5BD91B6B0123UL,
    0xBFA3B35DCBC80146UL, 0x3F89D76B0A0535C7UL, 0x3F614C887A83A0E6UL,
    0xBF7117F42CC6E9F4UL, 0x3F59B477BDAD8E0BUL, 0x3F21D219FB0E1BC9UL,
    0xBF35BB59D3CA6ABFUL, 0x3F18CA373C577165UL, 0x3EF4A9B743F9C2BCUL,
    0x3FEFE307F2B503D0UL, 0xBC68A555000387F8UL, 0x3F906AE13B0D3255UL,
    0xBC388ABD7F4BE982UL, 0xBFA0EE3844E59BE7UL, 0x3FA48B127F8ED8A5UL,
    0xBF9F155B4E7D8C3BUL, 0x3F8AA2C0753D569AUL, 0xBF4BBF7E2795837BUL,
    0xBF65478D784D271CUL, 0x3F58EAE08CDF9547UL, 0xBF292946556037E5UL,
    0xBF290F27AE615128UL, 0x3F1B076B7853882EUL, 0xBEDB2906EF1A5F9DUL,
    0x3FEFEFCCE6813974UL, 0xBC5B27CF5025D1C8UL, 0x3F834D7DBC76D7E5UL,
    0x3C23780D6E7EB350UL, 0xBF951CC18621FC23UL, 0x3F9B925A99886BB7UL,
    0xBF971E7D408C8C6FUL, 0x3F87EA58080A81EFUL, 0xBF646EB9D203E071UL,
    0xBF5403333682FA5EUL, 0x3F53B37D5BD14A40UL, 0xBF36BE130822DBDFUL,
    0xBF103D4BCDAFE930UL, 0x3F155848476C7D88UL, 0xBEF5492BF34225DDUL,
    0x3FEFF733814AF88CUL, 0x3C70A87238CEA4F9UL, 0x3F75FF2750FE7820UL,
    0xBC15F184847CA665UL, 0xBF896F0575A63AE5UL, 0x3F91C5A643F04363UL,
    0xBF904F5CAAF2196FUL, 0x3F8382A146AFB9D2UL, 0xBF695CAB93AA68D2UL,
    0xBF2D2FD90FE62928UL, 0x3F49F50FB94C0B82UL, 0xBF37D7378074399BUL,
    0x3EFCC0C9CBA01378UL, 0x3F092A3A2947141EUL, 0xBEF7C1278765D4E1UL,
    0x3FEFFB5BDF67FE6FUL, 0x3C14E830346F6E7FUL, 0x3F684BA3004A50D0UL,
    0xBBF90B93D46321EFUL, 0xBF7D9C2EA85A927DUL, 0x3F860898536E104AUL,
    0xBF85EB1C899F0B70UL, 0x3F7D854F73E74C87UL, 0xBF6897719A9D257EUL,
    0x3F388CDC8B807C97UL, 0x3F3B325A11C1F45AUL, 0xBF3381548F692740UL,
    0x3F12B1FD05559D5AUL, 0x3EF1ED31CD6FE717UL, 0xBEF29CF594067066UL,
    0x3FEFFD9F78C7524AUL, 0x3C804ED6FF98E45DUL, 0x3F5A024365F771BDUL,
    0x3BF3C8F5202CB3E9UL, 0xBF70A9732D5284DDUL, 0x3F7A4BF47A43042AUL,
    0xBF7C23802D8A5BB7UL, 0x3F74F40070668329UL, 0xBF64C9A2C9DCCD04UL,
    0x3F44F7A50B5BC019UL, 0x3F218B04EB90C73AUL, 0xBF2A4C3880C0EA6AUL,
    0x3F14B7B82A86E254UL, 0xBED0BC762B1BE79CUL, 0xBEE589D6F7ACEE55UL,
    0x3FEFFED167B12AC2UL, 0xBC8DDC0CE3ED8FCBUL, 0x3F4AFC85E0F82E12UL,
    0x3BD438F22895E01DUL, 0xBF6221A9F326BEF4UL, 0x3F6E3C9AAB90BCF4UL,
    0xBF714B1B98141F21UL, 0x3F6C1C19B9E63D70UL, 0xBF5FEAC3DBEB5124UL,
    0x3F463E88178B0E49UL, 0xBF04441C86C93F7AUL, 0xBF1C8CEEBC5FC50CUL,
    0x3F1125B77A79FCB6UL, 0xBEEDA7BE990BB4AEUL, 0xBECE0199701A7AE1UL,
    0x3FEFFF6DEE89352EUL, 0x3C8B96C0BA13851DUL, 0x3F3B23A5A23E4210UL,
    0x3BC727BCE1BDFFFEUL, 0xBF5315107613C673UL, 0x3F60C243329A9CA1UL,
    0xBF64630116262084UL, 0x3F61E84D1022E8CBUL, 0xBF56B41872716325UL,
    0x3F436EDDE582B265UL, 0xBF1F7870EBC38E66UL, 0xBF051ECFDC37801EUL,
    0x3F0711D817E07BC3UL, 0xBEF0AE90D500CDAAUL, 0x3EAA85B1E116E0B9UL,
    0x3FEFFFBB8F1049C6UL, 0x3C7D2C6266B51F27UL, 0x3F2A740684026555UL,
    0xBBA7E24CC3AC5720UL, 0xBF436D34C8F1C26AUL, 0x3F51EB6E14974A25UL,
    0xBF5714EB8CC0947FUL, 0x3F55BEC08C01B1D7UL, 0xBF4E4621D82DAD12UL,
    0x3F3E1B7B564B0E79UL, 0xBF224564B69716A0UL, 0x3EBBF8E3B47F3CC9UL,
    0x3EF8F55A9BE0E03DUL, 0xBEEB3B76E620315AUL, 0x3EC713C79EEE77A2UL,
    0x3FEFFFE0E0140857UL, 0xBC66AA36F86C14DDUL, 0x3F18FDC1B2DCF7B9UL,
    0x3B87050F50B8F311UL, 0xBF3322484CF12DAAUL, 0x3F427DC1BC6CFEF5UL,
    0xBF49202F465EB421UL, 0x3F493B4C9746835FUL, 0xBF430E9E6142FE9BUL,
    0x3F3555B9D5FB4825UL, 0xBF2055983C4AC7ABUL, 0x3EF68E6C75A5D068UL,
    0x3EE2D4A50D2829B7UL, 0xBEE1DE08B5647C04UL, 0x3EC9110CC775C8C4UL,
    0x3FEFFFF2436A21DCUL, 0xBC83607959A29D36UL, 0x3F06E2367DC27F95UL,
    0x3B6D96E6F01510E8UL, 0xBF223C436C36FDABUL, 0x3F326BF00867A835UL,
    0xBF3A51FB50B15F22UL, 0x3F3C0825378FDA08UL, 0xBF36C3DBFE0CBE4AUL,
    0x3F2C1DD1438378DFUL, 0xBF194C36A9D7C0F6UL, 0x3EFBF0AAB116CA42UL,
    0x3E86BDBD2F94D9AFUL, 0xBED2B32E8D43F559UL, 0x3EC3A74027955778UL,
    0x3FEFFFFA1DE8C582UL, 0x3C8832540129302AUL, 0x3EF44F21E49054F2UL,
    0x3B8F338CF40864D8UL, 0xBF10D18811478659UL, 0x3F21B964D438F622UL,
    0xBF2A8D7851F26BF0UL, 0x3F2DDD6DF9B6852DUL, 0xBF29E52B7AAC1644UL,
    0x3F2165B2034FCAB2UL, 0xBF11B75C33326751UL, 0x3EF91A253C42F4E8UL,
    0xBED020B498059EDBUL, 0xBEBADE63F3082A14UL, 0x3EB89BB0C09C8515UL,
    0x3FEFFFFD8E1A2F22UL, 0xBC8C10ADF6B19989UL, 0x3EE1783CEAC28910UL,
    0xBB87F19D8EE582E5UL, 0xBEFE06A8B37E5B93UL, 0x3F107978C7B8496BUL,
    0xBF19D039884F8BE5UL, 0x3F1E8D1145E94A54UL, 0xBF1C1F7251172A87UL,
    0x3F1458B9E0854D68UL, 0xBF06EB05572453F5UL, 0x3EF33045CF65279EUL,
    0xBED42C8ADF1CD1FDUL, 0x3E491109B80A7A7EUL, 0x3EA83A9B773281ACUL,
    0x3FEFFFFF039F9E8FUL, 0xBC89D1BCD6174E99UL, 0x3ECD21397EAD99CBUL,
    0xBB46ABD9C029CF89UL, 0xBEE9F19734D29CF9UL, 0x3EFD982BD41D8954UL,
    0xBF08320FC4836BE5UL, 0x3F0E0A1CB1D071F3UL, 0xBF0D384223047B9CUL,
    0x3F0696DAF6422BD4UL, 0xBEFBB6E2D311A919UL, 0x3EEA4FCB0EA87EFBUL,
    0xBED1C940C531C53BUL, 0x3EA7469913F4F763UL, 0x3E8EF4B543F81F48UL,
    0x3FEFFFFF9D446CCCUL, 0xBC6BB06BAB98BC7EUL, 0x3EB789FB715AAE95UL,
    0xBAF226D93BF88FF6UL, 0xBED5B333CC7F98F1UL, 0x3EE9B12FDBF90F62UL,
    0xBEF5E06923144D70UL, 0x3EFC6A071925631DUL, 0xBEFD178CB0388A82UL,
    0x3EF7E29D33AC92B6UL, 0xBEEF9203429BA9FFUL, 0x3EE094DADEEE395CUL,
    0xBECA771CF3589991UL, 0x3EAB8FD1C29C263FUL, 0xBE5CC850AAAD7C6CUL,
    0x3FEFFFFFDA86FAA9UL, 0xBC7D230252D68F25UL, 0x3EA26F9DF8519BD7UL,
    0xBB4E339871C01768UL, 0xBEC1926290ADC888UL, 0x3ED5900C02D97304UL,
    0xBEE3166DE6A8C640UL, 0x3EE9DFCC328729E0UL, 0xBEEBCAB1ED5EC38DUL,
    0x3EE81CD74A57CE17UL, 0xBEE106E95B6BF43DUL, 0x3ED379625A71385FUL,
    0xBEC1970A5B67012CUL, 0x3EA74761C833476CUL, 0xBE80864CFF42CECEUL,
    0x3FEFFFFFF233EE1DUL, 0x3C8DB123ED17221DUL, 0x3E8BFD7555A3BD68UL,
    0x3B20151CF177A911UL, 0xBEAB8D7F804D2E73UL, 0x3EC17F93E5149289UL,
    0xBED013B0457D08FAUL, 0x3ED6B245D7E1D829UL, 0xBED98077548C6950UL,
    0x3ED7492048AB3CEBUL, 0xBED17506C7B39DF8UL, 0x3EC57E94A4C5F5A5UL,
    0xBEB5709711F3CABCUL, 0x3EA0A0F9569482A8UL, 0xBE81A9B85DFF4DD8UL,
    0x3FEFFFFFFB127525UL, 0x3C8504F382DB4102UL, 0x3E74980CB3C80949UL,
    0x3B17FBDD923F82B7UL, 0xBE94EA6CE697296FUL, 0x3EAB771D9B6F07B8UL,
    0xBEBA26C653FAD5B8UL, 0x3EC3302BB89379DEUL, 0xBEC67F42E5264333UL,
    0x3EC58B4ADAFB958EUL, 0xBEC10F5767962C5AUL, 0x3EB66CA44250DD07UL,
    0xBEA84EE0AD7ABF19UL, 0x3E953B60652920E7UL, 0xBE7C09EDF21F7464UL,
    0x3FEFFFFFFE4AED5EUL, 0x3C4389C0F32AD0F4UL, 0x3E5D5F3A8DEA7357UL,
    0x3AFFA07C18622D49UL, 0xBE7EBFB14C9170C0UL, 0x3E94D9228525F449UL,
    0xBEA48B536ADDAC5FUL, 0x3EAF48CCF23A68E2UL, 0xBEB3183B6134CF04UL,
    0x3EB31EFDE2215F01UL, 0xBEAFD9EEB0F18631UL, 0x3EA63414459AE298UL,
    0xBE99DDA81C133F08UL, 0x3E88DA7D30642544UL, 0xBE7303D957DD368AUL,
    0x3FEFFFFFFF6D1E56UL, 0xBC864D969B4BE4C4UL, 0x3E444D26DE513197UL,
    0x3AE76FC20FC4C506UL, 0xBE65E32DE7AF8977UL, 0x3E7E9E05B3C8F38AUL,
    0xBE8F2F6FA7DB5B1DUL, 0x3E9899DCACE485EBUL, 0xBE9F34B7EEF3C9B1UL,
    0x3EA04BE030272D14UL, 0xBE9C73BD2257171EUL, 0x3E94EDDA838439F6UL,
    0xBE89FC860B474229UL, 0x3E7B0D686A25FF7CUL, 0xBE672370FA7AF349UL,
    0x3FEFFFFFFFD01F89UL, 0xBC735E8E39884F62UL, 0x3E2B334FAC4B9F99UL,
    0x3AC32178ED1A6C0DUL, 0xBE4E2CEC6323E50EUL, 0x3E65C027D5BBA36AUL,
    0xBE76DF4D024FFFBEUL, 0x3E82AAF7C205B9EAUL, 0xBE88902EDFBFEFD6UL,
    0x3E8AB2AB1B338249UL, 0xBE885ABE0FF1BA49UL, 0x3E82D32F7C3621ECUL,
    0xBE78C141C67361CCUL, 0x3E6B9FA6FBB9A95AUL, 0xBE59DB63FB19C969UL,
    0x3FEFFFFFFFF0DD2BUL, 0x3C80DF73E7D2FC98UL, 0x3E11A94FF571654FUL,
    0x3ABFBF537B47CE6DUL, 0xBE34251F33F5578FUL, 0x3E4DE6BC1F75BB9BUL,
    0xBE6036B5FD1C4158UL, 0x3E6B58F1385DEF96UL, 0xBE72A2347EFB2135UL,
    0x3E7508DB866FFE00UL, 0xBE73FFEA93467FBFUL, 0x3E702FF87B2E2577UL,
    0xBE666E54EB04652DUL, 0x3E5A9EA2195C4985UL, 0xBE4AE3B864BD9186UL,
    0x3FEFFFFFFFFB5BE5UL, 0xBC7729D6819C7F34UL, 0x3DF63AC6B4EDC88EUL,
    0xBA7C45991834A34FUL, 0xBE1A0CE0DC06A706UL, 0x3E33E380DD7593A5UL,
    0xBE4638BC4FB02CBAUL, 0x3E535753AD4C5875UL, 0xBE5B41F33CAFCCC9UL,
    0x3E5FE694E371A659UL, 0xBE5F8AF0121A5E7CUL, 0x3E5AA77274DAB3DBUL,
    0xBE53616FE99F19F3UL, 0x3E484FDDF4C674DCUL, 0xBE3A3DDC50633D2CUL,
    0x3FEFFFFFFFFE9EB0UL, 0xBC5EA527E0BEF1ECUL, 0x3DDB1E5ACF351D87UL,
    0x3A5DC96583BC1D87UL, 0xBE005042A0A5F3C3UL, 0x3E199AC8FD63C66CUL,
    0xBE2D72344378E114UL, 0x3E3A6BE9A123435BUL, 0xBE433AACB4BF6CE3UL,
    0x3E474B732E7CEAA7UL, 0xBE47E7EAB6578E6AUL, 0x3E450959F2DAAE3BUL,
    0xBE3FFED4B859BD78UL, 0x3E351C7F99F8FDA3UL, 0xBE282BA5720B0440UL,
    0x3FEFFFFFFFFF9A1BUL, 0xBC66A87270D2450EUL, 0x3DC0084FF125639DUL,
    0xBA58AD61DEBEA5DFUL, 0xBDE3CA42ADAA26F6UL, 0x3DFFE73513C67BF8UL,
    0xBE12DD9AA5A2BEE4UL, 0x3E216EF6B93944A8UL, 0xBE2A2D58E9B2278BUL,
    0x3E306389B9748F25UL, 0xBE316CDD9EBD5C76UL, 0x3E2FDD861B55C502UL,
    0xBE2945781EFF3C56UL, 0x3E2178F3905F3E13UL, 0xBE1519498E66AE8CUL,
    0x3FEFFFFFFFFFE380UL, 0x3C87CE07114E4FE0UL, 0x3DA25F9EE0B923DCUL,
    0xBA4174C43A738D83UL, 0xBDC74105146A5162UL, 0x3DE33CDE4F35D941UL,
    0xBDF760FE7B666392UL, 0x3E063A70FD66D485UL, 0xBE11324F6FB6DECFUL,
    0x3E163A31A36B815CUL, 0xBE18724CA89A96D5UL, 0x3E172E290891E5DEUL,
    0xBE131FC02F5342E7UL, 0x3E0B9E8B0E7FA322UL, 0xBE018235C2036ED3UL,
    0x3FEFFFFFFFFFF845UL, 0x3C7B0EDC5A89AB8FUL, 0x3D846897D4B69FC6UL,
    0x3A2A74852413B364UL, 0xBDAA77A4E7DCD735UL, 0x3DC67543695DCC12UL,
    0xBDDC05C1E2FC7105UL, 0x3DEB639419FEDF8EUL, 0xBDF5CFD7EB9C1025UL,
    0x3DFD11578959BA45UL, 0xBE0082F9E9D1BF57UL, 0x3E00354CEADAD8AFUL,
    0xBDFBC2DFA2690A64UL, 0x3DF4E11EFDC68123UL, 0xBDEBB101D235F656UL,
    0x3FEFFFFFFFFFFDF8UL, 0xBC8DCF8B10FF973BUL, 0x3D65F8B87A31BD85UL,
    0x39D65B26542E9E5AUL, 0xBD8D2E55024A0FB5UL, 0x3DA9612CC225DF4BUL,
    0xBDC03EE5F38B9B49UL, 0x3DD04F2F71E2E96BUL, 0xBDDAB7099F99E01BUL,
    0x3DE2554B8F609FD1UL, 0xBDE57C8752774563UL, 0x3DE5CD182C967665UL,
    0xBDE3580A8444F948UL, 0x3DDE3BE72B1C25E0UL, 0xBDD4E86BACE0629AUL,
    0x3FEFFFFFFFFFFF7BUL, 0x3C800FA07F7FB612UL, 0x3D46ED2F2515E933UL,
    0x39D2BC1802866176UL, 0xBD6F2A6C1669C902UL, 0x3D8BC42BA38A13F8UL,
    0xBDA2391E135AFAB8UL, 0x3DB2C6C24550F64FUL, 0xBDBF9A3C1B0E1479UL,
    0x3DC6502546AB341AUL, 0xBDCAF22316E181C7UL, 0x3DCC388DD1764F21UL,
    0xBDC9E65DF1DB0F56UL, 0x3DC4FCD27877D440UL, 0xBDBE3109BCB1F5C0UL,
    0x3FEFFFFFFFFFFFDFUL, 0x3C75669E670F914BUL, 0x3D272FD93E036CDCUL,
    0x39B1C553D0F2268EUL, 0xBD501F450D1E61B1UL, 0x3D6D68FB81B2ED89UL,
    0xBD83C706AA4D2517UL, 0x3D94E6479565838EUL, 0xBDA20E9EB8375E6DUL,
    0x3DAA35B9D2FCAC80UL, 0xBDB04A1357D2538AUL, 0x3DB196579F27DD9BUL,
    0xBDB0AB824E9A83C6UL, 0x3DABF68355F5F78AUL, 0xBDA4DF5A83C09A69UL,
    0x3FEFFFFFFFFFFFF8UL, 0x3C70160EF15C497DUL, 0x3D06BA91AC734786UL,
    0xB9AF81D6FAA99C8DUL, 0xBD3028A39099F4D9UL, 0x3D4E292863E1795EUL,
    0xBD64C4E690FBE215UL, 0x3D767E6E5AC60FD1UL, 0xBD83F00D80A59EDBUL,
    0x3D8DB88EE63EB28BUL, 0xBD92FE58B79ED432UL, 0x3D951DBEAE22A581UL,
    0xBD94A49E1AC4C62EUL, 0x3D91E432D67585A3UL, 0xBD8BA9E4D5413BF6UL,
    0x3FEFFFFFFFFFFFFEUL, 0x3C759AB24E589A30UL, 0x3CE5982008DB1304UL,
    0xB981CF9BDADA0BFEUL, 0xBD0F610E8CDE57A1UL, 0x3D2DF2DAC2F2D47FUL,
    0xBD451B17F95FCC91UL, 0x3D576996DDC975D7UL, 0xBD6546155A7F71DAUL,
    0x3D70456ED89C4F25UL, 0xBD755D62C910E918UL, 0x3D786EAD99977305UL,
    0xBD789ABA61A64C46UL, 0x3D76011E175FB0FCUL, 0xBD7196BAD9C990A0UL,
    0x3FF0000000000000UL, 0xBC8A6D7D18831888UL, 0x3CC3E296303B2297UL,
    0x39668CF6480A3817UL, 0xBCED8456EF97C759UL, 0x3D0CCB92E6C24C8DUL,
    0xBD24C1AA8CF10B54UL, 0x3D37918B6B83C0FBUL, 0xBD45F07365CC71F3UL,
    0x3D5134D070B5921EUL, 0xBD5730A22EAE78B0UL, 0x3D5B4091041F5829UL,
    0xBD5C3D456B2C9AB3UL, 0x3D5A06B4F4C53482UL, 0xBD5579F5A4E42676UL
PHAL_TABLE_END


// phal-block: phal_m_erf_f64 phal_m_macros phal_m_erf_table phal_m_two_prod_f64 phal_m_two_sum_f64
// |x| < 1/4: the Maclaurin series to degree 19. 1/4 <= |x| < 6: the Taylor
// series to degree 12 around the nearest of 46 centers 1/8 apart (table: the
// value and first coefficient in double-double, then the others). Beyond:
// erf(x) rounds to +-1.
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
    precise double a;
    precise double ae;
    phal_m_two_prod_f64(k_hi, ax, a, ae);
    precise double az = a * z;
    y = a + fma(az, q, fma(k_lo, ax, ae));
  } else {
    int j = min(int((ax - 0.25) * 8.0), 45);
    precise double h = ax - double(2 * j + 5) * 0.0625;
    int o = 15 * j;
    precise double q = uint64BitsToDouble(phal_m_erf_table[o + 14]);
    for (int i = 13; i >= 4; --i) {
      q = fma(q, h, uint64BitsToDouble(phal_m_erf_table[o + i]));
    }
    double eh = uint64BitsToDouble(phal_m_erf_table[o]);
    double el = uint64BitsToDouble(phal_m_erf_table[o + 1]);
    double a1h = uint64BitsToDouble(phal_m_erf_table[o + 2]);
    double a1l = uint64BitsToDouble(phal_m_erf_table[o + 3]);
    precise double p;
    precise double pe;
    phal_m_two_prod_f64(a1h, h, p, pe);
    precise double s;
    precise double se;
    phal_m_two_sum_f64(eh, p, s, se);
    precise double hh = h * h;
    precise double lo = (se + el) + (fma(a1l, h, pe) + hh * q);
    y = s + lo;
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
// exp(y * log|x|) with log in double-double (relative error below 2^-70) and
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
