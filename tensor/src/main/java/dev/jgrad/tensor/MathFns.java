package dev.jgrad.tensor;

/** Scalar functions the JDK lacks, accurate to double precision so float64 gradchecks can trust them. */
public final class MathFns {
    private static final double TWO_OVER_SQRT_PI = 2.0 / Math.sqrt(Math.PI);
    private static final double INV_SQRT_PI = 1.0 / Math.sqrt(Math.PI);
    static final double SQRT_2_OVER_PI = Math.sqrt(2.0 / Math.PI);
    static final double INV_SQRT_2 = 1.0 / Math.sqrt(2.0);
    static final double INV_SQRT_2PI = 1.0 / Math.sqrt(2.0 * Math.PI);

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
            for (int n = 1; n < 200; n++) {
                term *= 2 * x2 / (2 * n + 1);
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

    /** The standard normal density. */
    static double normalPdf(double x) {
        return INV_SQRT_2PI * Math.exp(-0.5 * x * x);
    }

    static double sigmoid(double x) {
        return 1.0 / (1.0 + Math.exp(-x));
    }

    static double gelu(double x) {
        return 0.5 * x * (1.0 + erf(x * INV_SQRT_2));
    }

    static double geluTanh(double x) {
        return 0.5 * x * (1.0 + Math.tanh(SQRT_2_OVER_PI * (x + 0.044715 * x * x * x)));
    }
}
