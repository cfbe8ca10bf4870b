package dev.jgrad.tensor;

/** Elementwise functions of one tensor, with their scalar definition for the generic kernels. */
enum UnaryOp {
    NEG("neg", false, false) {
        double apply(double x) {
            return -x;
        }
    },
    ABS("abs", false, false) {
        double apply(double x) {
            return Math.abs(x);
        }
    },
    SIGN("sign", false, false) {
        double apply(double x) {
            return Math.signum(x);
        }
    },
    EXP("exp", true, false) {
        double apply(double x) {
            return Math.exp(x);
        }
    },
    LOG("log", true, false) {
        double apply(double x) {
            return Math.log(x);
        }
    },
    LOG1P("log1p", true, false) {
        double apply(double x) {
            return Math.log1p(x);
        }
    },
    SQRT("sqrt", true, false) {
        double apply(double x) {
            return Math.sqrt(x);
        }
    },
    RSQRT("rsqrt", true, false) {
        double apply(double x) {
            return 1.0 / Math.sqrt(x);
        }
    },
    SIN("sin", true, false) {
        double apply(double x) {
            return Math.sin(x);
        }
    },
    COS("cos", true, false) {
        double apply(double x) {
            return Math.cos(x);
        }
    },
    TANH("tanh", true, false) {
        double apply(double x) {
            return Math.tanh(x);
        }
    },
    SIGMOID("sigmoid", true, false) {
        double apply(double x) {
            return MathFns.sigmoid(x);
        }
    },
    RELU("relu", false, false) {
        double apply(double x) {
            return x > 0 ? x : (Double.isNaN(x) ? x : 0.0);
        }
    },
    SILU("silu", true, false) {
        double apply(double x) {
            return x * MathFns.sigmoid(x);
        }
    },
    GELU("gelu", true, false) {
        double apply(double x) {
            return MathFns.gelu(x);
        }
    },
    GELU_TANH("gelu", true, false) {
        double apply(double x) {
            return MathFns.geluTanh(x);
        }
    },
    SQUARE("square", false, false) {
        double apply(double x) {
            return x * x;
        }
    },
    RECIPROCAL("reciprocal", true, false) {
        double apply(double x) {
            return 1.0 / x;
        }
    },
    ERF("erf", true, false) {
        double apply(double x) {
            return MathFns.erf(x);
        }
    },
    FLOOR("floor", false, false) {
        double apply(double x) {
            return Math.floor(x);
        }
    },
    LOGICAL_NOT("logical_not", false, true) {
        double apply(double x) {
            return x == 0.0 ? 1.0 : 0.0;
        }
    },
    ISNAN("isnan", false, true) {
        double apply(double x) {
            return Double.isNaN(x) ? 1.0 : 0.0;
        }
    };

    final String pyName;
    /** Integer inputs become float32 first, as in PyTorch ({@code exp} of an int tensor is float). */
    final boolean floatOnly;
    /** The result is bool whatever the input. */
    final boolean boolResult;

    UnaryOp(String pyName, boolean floatOnly, boolean boolResult) {
        this.pyName = pyName;
        this.floatOnly = floatOnly;
        this.boolResult = boolResult;
    }

    abstract double apply(double x);
}
