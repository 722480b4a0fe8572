/* The soft float and double functions our boot ROM's SF and SD tables point at, in the ROM
 * extension (rom.ld). The arithmetic is the compiler's (libgcc's __aeabi_*); the rest is
 * written here in double precision, plainly: a maintainer's emulator needs the right value,
 * not the real ROM's speed. Rounding as the RP2040 datasheet (2.8.3.2) describes: conversions
 * to integers round towards minus infinity and clamp; "fix" values are scaled by 2^n. */
#include <stdint.h>

typedef union { double d; uint64_t u; } bits64;

static double scale2(double x, int n) { /* x * 2^n */
    while (n > 0) { x *= 2.0; n--; }
    while (n < 0) { x *= 0.5; n++; }
    return x;
}

static int is_nan(double x) { return x != x; }

static double floor_d(double x) {
    if (x >= 9.2e18 || x <= -9.2e18 || is_nan(x)) return x;
    int64_t t = (int64_t)x;
    double f = (double)t;
    return f > x ? f - 1.0 : f;
}

static int64_t to_int(double x, double low, double high) {
    if (is_nan(x)) return 0;
    x = floor_d(x);
    if (x <= low) return (int64_t)low;
    if (x >= high) return (int64_t)high;
    return (int64_t)x;
}

static uint64_t to_uint64(double x) {
    if (is_nan(x) || x <= 0.0) return 0;
    x = floor_d(x);
    if (x >= 18446744073709551615.0) return UINT64_MAX;
    if (x >= 9223372036854775808.0) return (uint64_t)(int64_t)(x - 9223372036854775808.0) + (1ull << 63);
    return (uint64_t)(int64_t)x;
}

static double sqrt_d(double x) {
    if (is_nan(x) || x < 0.0) return 0.0 / 0.0;
    if (x == 0.0 || x > 1.7e308) return x;
    bits64 b = {x};
    b.u = (b.u >> 1) + (0x3FFull << 51); /* halve the exponent: a first guess */
    double r = b.d;
    for (int i = 0; i < 8; i++) r = 0.5 * (r + x / r);
    return r;
}

static const double PI = 3.14159265358979323846, LN2 = 0.69314718055994530942;

static double exp_d(double x) {
    if (is_nan(x)) return x;
    if (x > 709.0) return 1.0 / 0.0;
    if (x < -745.0) return 0.0;
    double k = floor_d(x / LN2 + 0.5);
    double r = x - k * LN2, term = 1.0, sum = 1.0;
    for (int i = 1; i < 20; i++) { term *= r / i; sum += term; }
    return scale2(sum, (int)k);
}

static double ln_d(double x) {
    if (is_nan(x) || x < 0.0) return 0.0 / 0.0;
    if (x == 0.0) return -1.0 / 0.0;
    int e = 0;
    while (x > 1.41421356237) { x *= 0.5; e++; }
    while (x < 0.70710678118) { x *= 2.0; e--; }
    double z = (x - 1.0) / (x + 1.0), z2 = z * z, term = z, sum = 0.0;
    for (int i = 1; i < 40; i += 2) { sum += term / i; term *= z2; }
    return 2.0 * sum + e * LN2;
}

static double reduce(double x) { /* into [-pi, pi] */
    return x - 2.0 * PI * floor_d(x / (2.0 * PI) + 0.5);
}

static double sin_d(double x) {
    x = reduce(x);
    double term = x, sum = x, x2 = x * x;
    for (int i = 3; i < 40; i += 2) { term *= -x2 / ((i - 1) * i); sum += term; }
    return sum;
}

static double cos_d(double x) { return sin_d(x + PI / 2.0); }

static double atan_d(double z) { /* |z| <= 1 after two halvings of the angle */
    int sign = z < 0.0;
    if (sign) z = -z;
    int inverted = z > 1.0;
    if (inverted) z = 1.0 / z;
    for (int i = 0; i < 2; i++) z = z / (1.0 + sqrt_d(1.0 + z * z));
    double z2 = z * z, term = z, sum = 0.0;
    for (int i = 1; i < 60; i += 2) { sum += term / i; term *= -z2; }
    sum *= 4.0;
    if (inverted) sum = PI / 2.0 - sum;
    return sign ? -sum : sum;
}

static double atan2_d(double y, double x) {
    if (x > 0.0) return atan_d(y / x);
    if (x < 0.0) return atan_d(y / x) + (y >= 0.0 ? PI : -PI);
    return y > 0.0 ? PI / 2.0 : y < 0.0 ? -PI / 2.0 : 0.0;
}

static int cmp3(double a, double b) { return a < b ? -1 : a > b ? 1 : 0; }

/* --- the float table --- */
float f_add(float a, float b) { return a + b; }
float f_sub(float a, float b) { return a - b; }
float f_mul(float a, float b) { return a * b; }
float f_div(float a, float b) { return a / b; }
int f_cmp(float a, float b) { return cmp3(a, b); }
float f_sqrt(float a) { return (float)sqrt_d(a); }
int32_t f_to_int(float a) { return (int32_t)to_int(a, -2147483648.0, 2147483647.0); }
int32_t f_to_fix(float a, int n) { return (int32_t)to_int(scale2(a, n), -2147483648.0, 2147483647.0); }
uint32_t f_to_uint(float a) { return (uint32_t)to_int(a, 0.0, 4294967295.0); }
uint32_t f_to_ufix(float a, int n) { return (uint32_t)to_int(scale2(a, n), 0.0, 4294967295.0); }
float f_from_int(int32_t v) { return (float)v; }
float f_from_fix(int32_t v, int n) { return (float)scale2((double)v, -n); }
float f_from_uint(uint32_t v) { return (float)v; }
float f_from_ufix(uint32_t v, int n) { return (float)scale2((double)v, -n); }
float f_cos(float a) { return (float)cos_d(a); }
float f_sin(float a) { return (float)sin_d(a); }
float f_tan(float a) { return (float)(sin_d(a) / cos_d(a)); }
float f_exp(float a) { return (float)exp_d(a); }
float f_ln(float a) { return (float)ln_d(a); }
float f_atan2(float y, float x) { return (float)atan2_d(y, x); }
float f_from_int64(int64_t v) { return (float)(double)v; }
float f_from_fix64(int64_t v, int n) { return (float)scale2((double)v, -n); }
float f_from_uint64(uint64_t v) { return (float)(double)v; }
float f_from_ufix64(uint64_t v, int n) { return (float)scale2((double)v, -n); }
int64_t f_to_int64(float a) { return to_int(a, -9223372036854775808.0, 9223372036854775807.0); }
int64_t f_to_fix64(float a, int n) { return to_int(scale2(a, n), -9223372036854775808.0, 9223372036854775807.0); }
uint64_t f_to_uint64(float a) { return to_uint64(a); }
uint64_t f_to_ufix64(float a, int n) { return to_uint64(scale2(a, n)); }
double f_to_double(float a) { return a; }

/* --- the double table --- */
double d_add(double a, double b) { return a + b; }
double d_sub(double a, double b) { return a - b; }
double d_mul(double a, double b) { return a * b; }
double d_div(double a, double b) { return a / b; }
int d_cmp(double a, double b) { return cmp3(a, b); }
double d_sqrt(double a) { return sqrt_d(a); }
int32_t d_to_int(double a) { return (int32_t)to_int(a, -2147483648.0, 2147483647.0); }
int32_t d_to_fix(double a, int n) { return (int32_t)to_int(scale2(a, n), -2147483648.0, 2147483647.0); }
uint32_t d_to_uint(double a) { return (uint32_t)to_int(a, 0.0, 4294967295.0); }
uint32_t d_to_ufix(double a, int n) { return (uint32_t)to_int(scale2(a, n), 0.0, 4294967295.0); }
double d_from_int(int32_t v) { return v; }
double d_from_fix(int32_t v, int n) { return scale2(v, -n); }
double d_from_uint(uint32_t v) { return v; }
double d_from_ufix(uint32_t v, int n) { return scale2(v, -n); }
double d_cos(double a) { return cos_d(a); }
double d_sin(double a) { return sin_d(a); }
double d_tan(double a) { return sin_d(a) / cos_d(a); }
double d_exp(double a) { return exp_d(a); }
double d_ln(double a) { return ln_d(a); }
double d_atan2(double y, double x) { return atan2_d(y, x); }
double d_from_int64(int64_t v) { return (double)v; }
double d_from_fix64(int64_t v, int n) { return scale2((double)v, -n); }
double d_from_uint64(uint64_t v) { return (double)v; }
double d_from_ufix64(uint64_t v, int n) { return scale2((double)v, -n); }
int64_t d_to_int64(double a) { return to_int(a, -9223372036854775808.0, 9223372036854775807.0); }
int64_t d_to_fix64(double a, int n) { return to_int(scale2(a, n), -9223372036854775808.0, 9223372036854775807.0); }
uint64_t d_to_uint64(double a) { return to_uint64(a); }
uint64_t d_to_ufix64(double a, int n) { return to_uint64(scale2(a, n)); }
float d_to_float(double a) { return (float)a; }

/* cmp with the answer in the flags, as `cmp a, b` would leave them for signed conditions */
__attribute__((naked)) void f_cmp_flags(void) {
    __asm__ volatile("push {lr}\n bl f_cmp\n cmp r0, #0\n pop {pc}\n");
}
__attribute__((naked)) void d_cmp_flags(void) {
    __asm__ volatile("push {lr}\n bl d_cmp\n cmp r0, #0\n pop {pc}\n");
}
__attribute__((noreturn)) void missing(void) { for (;;) __asm__ volatile("bkpt #0"); }
