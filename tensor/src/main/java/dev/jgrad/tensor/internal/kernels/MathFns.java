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
     * erf to float precision, several times cheaper than {@link #erf}: the Taylor series below |x| = 0.5
     * (relative error under 1e-8 there) and Abramowitz and Stegun's formula 7.1.26 above (absolute error
     * under 1.5e-7, where erf is at least 0.52). Float32 kernels use it; float64 ones use {@link #erf}.
     */
    public static double erfFloat(double x) {
        double ax = Math.abs(x);
        if (ax < 0.5) {
            double x2 = x * x;
            return TWO_OVER_SQRT_PI * x * (1 - x2 * (1.0 / 3 - x2 * (1.0 / 10 - x2 * (1.0 / 42 - x2 * (1.0 / 216 - x2 / 1320)))));
        }
        if (ax > 6) {
            return Math.copySign(1.0, x);
        }
        double t = 1 / (1 + 0.3275911 * ax);
        double poly = t * (0.254829592 + t * (-0.284496736 + t * (1.421413741 + t * (-1.453152027 + t * 1.061405429))));
        double r = 1 - poly * Math.exp(-ax * ax);
        return x < 0 ? -r : r;
    }

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

    public static double sigmoid(double x) {
        return 1.0 / (1.0 + Math.exp(-x));
    }

    public static double gelu(double x) {
        return 0.5 * x * (1.0 + erf(x * INV_SQRT_2));
    }

    public static double geluTanh(double x) {
        return 0.5 * x * (1.0 + Math.tanh(SQRT_2_OVER_PI * (x + GELU_KAPPA * x * x * x)));
    }
}
