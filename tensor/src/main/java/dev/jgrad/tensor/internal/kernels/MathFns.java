package dev.jgrad.tensor.internal.kernels;

/** Scalar functions the JDK lacks, accurate to double precision so float64 gradchecks can trust them. */
public final class MathFns {
    public static final double TWO_OVER_SQRT_PI = 2.0 / Math.sqrt(Math.PI);
    private static final double INV_SQRT_PI = 1.0 / Math.sqrt(Math.PI);
    public static final double SQRT_2_OVER_PI = Math.sqrt(2.0 / Math.PI);
    public static final double INV_SQRT_2 = 1.0 / Math.sqrt(2.0);
    public static final double INV_SQRT_2PI = 1.0 / Math.sqrt(2.0 * Math.PI);
    /** The cubic coefficient of GELU's tanh approximation. */
    public static final double GELU_KAPPA = 0.044715;

    /** 2 / (2n + 1) for the series of {@link #erf}: multiplications instead of divisions in the loop. */
    private static final double[] SERIES = new double[120];

    static {
        for (int n = 1; n < SERIES.length; n++) {
            SERIES[n] = 2.0 / (2 * n + 1);
        }
    }

    private MathFns() {
    }

    /**
     * {@code torch.clamp}'s rule: lo where x is below it, then hi where that is above it, else x itself. Not Java's
     * max and min: NaN stays NaN by failing both tests, and -0 clamped at 0 stays -0 (PyTorch's CPU kernel gives it,
     * where {@code Math.max(-0f, 0f)} is +0). A missing bound is -infinity or +infinity.
     */
    public static float clamp(float x, float lo, float hi) {
        float y = x < lo ? lo : x;
        return y > hi ? hi : y;
    }

    /** {@link #clamp(float, float, float)} in double. */
    public static double clamp(double x, double lo, double hi) {
        double y = x < lo ? lo : x;
        return y > hi ? hi : y;
    }

    /**
     * The error function. Below |x| = 2.5 it sums the series {@code 2/sqrt(pi) e^(-x^2) sum 2^n x^(2n+1) / (2n+1)!!},
     * whose terms are all positive (no cancellation); above it evaluates the continued fraction of erfc.
     * Both agree with the reference values to about 1e-16.
     */
    public static double erf(double x) {
        if (Double.isNaN(x)) {
            return x;
        }
        double ax = Math.abs(x);
        if (ax < 2.5) {
            double x2 = x * x;
            double term = ax;
            double sum = ax;
            for (int n = 1; n < SERIES.length; n++) {
                term *= x2 * SERIES[n];
                sum += term;
                if (term < sum * 1e-17) {
                    break;
                }
            }
            double r = TWO_OVER_SQRT_PI * Math.exp(-x2) * sum;
            return x < 0 ? -r : r;
        }
        double r = 1.0 - erfcLarge(ax);
        return x < 0 ? -r : r;
    }

    /**
     * erf to float precision, several times cheaper than {@link #erf}: Eigen's fast float erf (XLA uses it too), the odd
     * rational function {@code x P(x^2) / Q(x^2)} with x clamped to [-4, 4], past which erf rounds to +-1 in float, and
     * the result to [-1, 1]. Its relative error is under 1e-7 everywhere (near 0 too), and it has no exponential and no
     * branch, so the vector kernels compute the same function lane by lane. Float32 kernels use it; float64 ones use
     * {@link #erf}.
     */
    public static double erfFloat(double x) {
        double c = Math.max(-4.0, Math.min(4.0, x));
        double x2 = c * c;
        double p = ERF_P[ERF_P.length - 1];
        for (int k = ERF_P.length - 2; k >= 0; k--) {
            p = p * x2 + ERF_P[k];
        }
        double q = ERF_Q[ERF_Q.length - 1];
        for (int k = ERF_Q.length - 2; k >= 0; k--) {
            q = q * x2 + ERF_Q[k];
        }
        return Math.max(-1.0, Math.min(1.0, c * p / q));
    }

    /** {@link #erfFloat}'s numerator, the coefficients of x^1, x^3, ..., x^13 (divided by x). */
    static final float[] ERF_P = {-1.60960333262415e-02f, -2.95459980854025e-03f, -7.34990630326855e-04f, -5.69250639462346e-05f,
        -2.10102402082508e-06f, 2.77068142495902e-08f, -2.72614225801306e-10f};
    /** {@link #erfFloat}'s denominator, the coefficients of x^0, x^2, ..., x^8. */
    static final float[] ERF_Q = {-1.42647390514189e-02f, -7.37332916720468e-03f, -1.68282697438203e-03f, -2.13374055278905e-04f,
        -1.45660718464996e-05f};

    /** erfc for x >= 2.5 by the continued fraction {@code e^(-x^2)/sqrt(pi) / (x + 1/2 / (x + 1 / (x + 3/2 / (x + ...))))}, Lentz's method. */
    private static double erfcLarge(double x) {
        if (x > 27) {
            return 0.0;
        }
        double tiny = 1e-300;
        double f = x;
        double c = x;
        double d = 0;
        for (int k = 1; k < 500; k++) {
            double a = k / 2.0;
            d = x + a * d;
            d = d == 0 ? tiny : d;
            c = x + a / c;
            c = c == 0 ? tiny : c;
            d = 1 / d;
            double delta = c * d;
            f *= delta;
            if (Math.abs(delta - 1) < 1e-16) {
                break;
            }
        }
        return Math.exp(-x * x) * INV_SQRT_PI / f;
    }

    /**
     * tanh with the same bits on every JDK: fdlibm's ({@code StrictMath}). From JDK 24 on x86, {@code Math.tanh} is an
     * intrinsic whose last bit differs from fdlibm's (JDK 17's {@code Math.tanh}) for some inputs.
     */
    public static double tanh(double x) {
        return StrictMath.tanh(x);
    }

    public static double sigmoid(double x) {
        return 1.0 / (1.0 + Math.exp(-x));
    }

    public static double gelu(double x) {
        return 0.5 * x * (1.0 + erf(x * INV_SQRT_2));
    }

    public static double geluTanh(double x) {
        return 0.5 * x * (1.0 + tanh(SQRT_2_OVER_PI * (x + GELU_KAPPA * x * x * x)));
    }
}
