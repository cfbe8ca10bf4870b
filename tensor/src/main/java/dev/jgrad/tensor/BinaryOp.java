package dev.jgrad.tensor;

/** Elementwise functions of two broadcast tensors, with their scalar definition for the generic kernels. */
enum BinaryOp {
    ADD("add", Kind.ARITHMETIC) {
        double apply(double a, double b) {
            return a + b;
        }
    },
    SUB("sub", Kind.ARITHMETIC) {
        double apply(double a, double b) {
            return a - b;
        }
    },
    MUL("mul", Kind.ARITHMETIC) {
        double apply(double a, double b) {
            return a * b;
        }
    },
    DIV("div", Kind.ARITHMETIC) {
        double apply(double a, double b) {
            return a / b;
        }
    },
    POW("pow", Kind.ARITHMETIC) {
        double apply(double a, double b) {
            return Math.pow(a, b);
        }
    },
    MAXIMUM("maximum", Kind.ARITHMETIC) {
        double apply(double a, double b) {
            return Math.max(a, b);
        }
    },
    MINIMUM("minimum", Kind.ARITHMETIC) {
        double apply(double a, double b) {
            return Math.min(a, b);
        }
    },
    EQ("eq", Kind.COMPARISON) {
        double apply(double a, double b) {
            return a == b ? 1 : 0;
        }
    },
    NE("ne", Kind.COMPARISON) {
        double apply(double a, double b) {
            return a != b ? 1 : 0;
        }
    },
    LT("lt", Kind.COMPARISON) {
        double apply(double a, double b) {
            return a < b ? 1 : 0;
        }
    },
    LE("le", Kind.COMPARISON) {
        double apply(double a, double b) {
            return a <= b ? 1 : 0;
        }
    },
    GT("gt", Kind.COMPARISON) {
        double apply(double a, double b) {
            return a > b ? 1 : 0;
        }
    },
    GE("ge", Kind.COMPARISON) {
        double apply(double a, double b) {
            return a >= b ? 1 : 0;
        }
    },
    LOGICAL_AND("logical_and", Kind.LOGICAL) {
        double apply(double a, double b) {
            return a != 0 && b != 0 ? 1 : 0;
        }
    },
    LOGICAL_OR("logical_or", Kind.LOGICAL) {
        double apply(double a, double b) {
            return a != 0 || b != 0 ? 1 : 0;
        }
    },
    LOGICAL_XOR("logical_xor", Kind.LOGICAL) {
        double apply(double a, double b) {
            return (a != 0) != (b != 0) ? 1 : 0;
        }
    };

    enum Kind { ARITHMETIC, COMPARISON, LOGICAL }

    final String pyName;
    final Kind kind;

    BinaryOp(String pyName, Kind kind) {
        this.pyName = pyName;
        this.kind = kind;
    }

    abstract double apply(double a, double b);

    /** The type the kernel computes in, given the promoted type of the operands. */
    DType computeType(DType promoted) {
        switch (kind) {
            case LOGICAL:
                return DType.BOOL;
            case COMPARISON:
                return promoted == DType.BOOL ? DType.INT64 : promoted;
            default:
                if (promoted == DType.BOOL) {
                    return this == DIV || this == POW ? DType.FLOAT32 : DType.INT64;
                }
                return this == DIV && promoted == DType.INT64 ? DType.FLOAT32 : promoted;
        }
    }

    /** The type of the result, given the compute type. */
    DType resultType(DType compute) {
        return kind == Kind.ARITHMETIC ? compute : DType.BOOL;
    }
}
