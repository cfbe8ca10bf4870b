package dev.jgrad.autograd;

import dev.jgrad.tensor.Tensor;

/**
 * Differentiable elementwise ops, each forward beside its backward rule. Rules return gradients in the
 * output's shape; the engine sums them to each input's shape.
 */
final class PointwiseOps {
    private static final double INV_SQRT_2 = 1.0 / Math.sqrt(2.0);
    private static final double INV_SQRT_2PI = 1.0 / Math.sqrt(2.0 * Math.PI);
    private static final double SQRT_2_OVER_PI = Math.sqrt(2.0 / Math.PI);
    private static final double GELU_KAPPA = 0.044715;
    private static final double TWO_OVER_SQRT_PI = 2.0 / Math.sqrt(Math.PI);

    private PointwiseOps() {
    }

    private static Tensor[] grads(Tensor... g) {
        return g;
    }

    static Variable add(Variable a, Variable b) {
        Tensor y = a.data.add(b.data);
        return Op.of("add", y, a, b).backward((g, n) -> grads(g, g));
    }

    static Variable sub(Variable a, Variable b) {
        Tensor y = a.data.sub(b.data);
        return Op.of("sub", y, a, b).backward((g, n) -> grads(g, n.needs(1) ? g.neg() : null));
    }

    static Variable addScalar(Variable a, double s) {
        Tensor y = a.data.add(s);
        return Op.of(s >= 0 ? "add" : "sub", y, a).backward((g, n) -> grads(g));
    }

    static Variable rsub(Variable a, double s) {
        Tensor y = a.data.rsub(s);
        return Op.of("rsub", y, a).backward((g, n) -> grads(g.neg()));
    }

    static Variable mul(Variable a, Variable b) {
        Tensor y = a.data.mul(b.data);
        Op op = Op.of("mul", y, a, b);
        op.save(op.needs(1) ? a.data : null).save(op.needs(0) ? b.data : null);
        return op.backward((g, n) -> grads(
                n.needs(0) ? g.mul(n.saved(1)) : null,
                n.needs(1) ? g.mul(n.saved(0)) : null));
    }

    static Variable mulScalar(Variable a, double s) {
        return mulScalar(a, s, "mul", s);
    }

    /** {@code a * s}, named {@code name} (div by a scalar is a mul by its reciprocal). */
    static Variable mulScalar(Variable a, double s, String name, double shown) {
        Tensor y = "div".equals(name) ? a.data.div(shown) : a.data.mul(s);
        return Op.of(name, y, a).backward((g, n) -> grads(g.mul(s)));
    }

    static Variable div(Variable a, Variable b) {
        Tensor y = a.data.div(b.data);
        Op op = Op.of("div", y, a, b);
        op.save(op.needs(1) ? a.data : null).save(b.data);
        return op.backward((g, n) -> {
            Tensor bv = n.saved(1);
            Tensor ga = n.needs(0) ? g.div(bv) : null;
            Tensor gb = n.needs(1) ? g.neg().mul(n.saved(0)).div(bv.square()) : null;
            return grads(ga, gb);
        });
    }

    static Variable rdiv(Variable a, double s) {
        Tensor y = a.data.rdiv(s);
        return Op.of("rdiv", y, a).save(a.data).backward((g, n) -> {
            Tensor x = n.saved(0);
            return grads(g.mul(-s).div(x.square()));
        });
    }

    /** PyTorch's rules: no gradient to the base where the exponent is 0, none to the exponent where base is 0 and exponent >= 0. */
    static Variable pow(Variable a, Variable b) {
        Tensor y = a.data.pow(b.data);
        Op op = Op.of("pow", y, a, b).save(a.data).save(b.data).saveOutput();
        return op.backward((g, n) -> {
            Tensor x = n.saved(0);
            Tensor e = n.saved(1);
            Tensor ga = null;
            Tensor gb = null;
            if (n.needs(0)) {
                Tensor d = e.mul(x.pow(e.sub(1.0)));
                ga = Tensor.where(e.eq(0.0), 0.0, g.mul(d));
            }
            if (n.needs(1)) {
                Tensor d = n.saved(2).mul(x.log());
                gb = Tensor.where(x.eq(0.0).logicalAnd(e.ge(0.0)), 0.0, g.mul(d));
            }
            return grads(ga, gb);
        });
    }

    static Variable powScalar(Variable a, double e) {
        Tensor y = a.data.pow(e);
        return Op.of("pow", y, a).save(a.data).backward((g, n) -> {
            if (e == 0.0) {
                return grads(Tensor.zerosLike(g));
            }
            Tensor x = n.saved(0);
            return grads(g.mul(x.pow(e - 1.0).mul(e)));
        });
    }

    static Variable rpow(Variable a, double base) {
        Tensor y = a.data.rpow(base);
        return Op.of("pow", y, a).save(a.data).saveOutput().backward((g, n) -> {
            Tensor d = g.mul(n.saved(1)).mul(Math.log(base));
            return grads(base == 0.0 ? Tensor.where(n.saved(0).ge(0.0), 0.0, d) : d);
        });
    }

    /** maximum/minimum: where the operands tie, each gets half the gradient, as in PyTorch. */
    static Variable maxMin(Variable a, Variable b, boolean isMax) {
        Tensor y = isMax ? a.data.maximum(b.data) : a.data.minimum(b.data);
        return Op.of(isMax ? "maximum" : "minimum", y, a, b).save(a.data).save(b.data).backward((g, n) -> {
            Tensor x = n.saved(0);
            Tensor z = n.saved(1);
            Tensor tie = x.eq(z);
            Tensor half = Tensor.where(tie, g.mul(0.5), g);
            Tensor ga = n.needs(0) ? half.maskedFill(isMax ? x.lt(z) : x.gt(z), 0.0) : null;
            Tensor gb = n.needs(1) ? half.maskedFill(isMax ? x.gt(z) : x.lt(z), 0.0) : null;
            return grads(ga, gb);
        });
    }

    /** The unary functions, each with its derivative in terms of the input x and the output y. */
    enum Fn {
        NEG("neg"), ABS("abs"), EXP("exp"), LOG("log"), LOG1P("log1p"), SQRT("sqrt"), RSQRT("rsqrt"), SIN("sin"), COS("cos"),
        TANH("tanh"), SIGMOID("sigmoid"), RELU("relu"), SILU("silu"), GELU("gelu"), GELU_TANH("gelu"), SQUARE("square"),
        RECIPROCAL("reciprocal"), ERF("erf");

        final String pyName;

        Fn(String pyName) {
            this.pyName = pyName;
        }
    }

    static Variable unary(Fn fn, Variable x) {
        Tensor in = x.data;
        Tensor y;
        switch (fn) {
            case NEG: y = in.neg(); break;
            case ABS: y = in.abs(); break;
            case EXP: y = in.exp(); break;
            case LOG: y = in.log(); break;
            case LOG1P: y = in.log1p(); break;
            case SQRT: y = in.sqrt(); break;
            case RSQRT: y = in.rsqrt(); break;
            case SIN: y = in.sin(); break;
            case COS: y = in.cos(); break;
            case TANH: y = in.tanh(); break;
            case SIGMOID: y = in.sigmoid(); break;
            case RELU: y = in.relu(); break;
            case SILU: y = in.silu(); break;
            case GELU: y = in.gelu(false); break;
            case GELU_TANH: y = in.gelu(true); break;
            case SQUARE: y = in.square(); break;
            case RECIPROCAL: y = in.reciprocal(); break;
            default: y = in.erf(); break;
        }
        Op op = Op.of(fn.pyName, y, x);
        switch (fn) {
            case NEG:
                return op.backward((g, n) -> grads(g.neg()));
            case EXP:
                return op.saveOutput().backward((g, n) -> grads(g.mul(n.saved(0))));
            case SQRT:
                return op.saveOutput().backward((g, n) -> grads(g.div(n.saved(0).mul(2.0))));
            case RSQRT:
                return op.saveOutput().backward((g, n) -> grads(g.mul(n.saved(0).pow(3.0)).mul(-0.5)));
            case TANH:
                return op.saveOutput().backward((g, n) -> grads(g.mul(n.saved(0).square().rsub(1.0))));
            case SIGMOID:
                return op.saveOutput().backward((g, n) -> {
                    Tensor s = n.saved(0);
                    return grads(g.mul(s.mul(s.rsub(1.0))));
                });
            case RELU:
                return op.saveOutput().backward((g, n) -> grads(g.maskedFill(n.saved(0).le(0.0), 0.0)));
            case RECIPROCAL:
                return op.saveOutput().backward((g, n) -> grads(g.mul(n.saved(0).square()).neg()));
            default:
                break;
        }
        return op.save(in).backward((g, n) -> {
            Tensor v = n.saved(0);
            switch (fn) {
                case ABS: return grads(g.mul(v.sign()));
                case LOG: return grads(g.div(v));
                case LOG1P: return grads(g.div(v.add(1.0)));
                case SIN: return grads(g.mul(v.cos()));
                case COS: return grads(g.mul(v.sin().neg()));
                case SQUARE: return grads(g.mul(v.mul(2.0)));
                case ERF: return grads(g.mul(v.square().neg().exp().mul(TWO_OVER_SQRT_PI)));
                case SILU: {
                    Tensor s = v.sigmoid();
                    return grads(g.mul(s.mul(v.mul(s.rsub(1.0)).add(1.0))));
                }
                case GELU: {
                    Tensor cdf = v.mul(INV_SQRT_2).erf().add(1.0).mul(0.5);
                    Tensor pdf = v.square().mul(-0.5).exp().mul(INV_SQRT_2PI);
                    return grads(g.mul(cdf.add(v.mul(pdf))));
                }
                case GELU_TANH: {
                    Tensor x2 = v.square();
                    Tensor inner = v.add(x2.mul(v).mul(GELU_KAPPA)).mul(SQRT_2_OVER_PI);
                    Tensor t = inner.tanh();
                    Tensor left = v.mul(0.5);
                    Tensor right = t.add(1.0);
                    Tensor leftDerivative = right.mul(0.5);
                    Tensor rightDerivative = left.mul(t.square().rsub(1.0)).mul(x2.mul(3 * GELU_KAPPA).add(1.0)).mul(SQRT_2_OVER_PI);
                    return grads(g.mul(leftDerivative.add(rightDerivative)));
                }
                default:
                    throw new AssertionError(fn);
            }
        });
    }

    static Variable clamp(Variable x, double min, double max) {
        Tensor y = x.data.clamp(min, max);
        return Op.of("clamp", y, x).save(x.data).backward((g, n) -> {
            Tensor v = n.saved(0);
            Tensor pass = null;
            if (!Double.isNaN(min)) {
                pass = v.ge(min);
            }
            if (!Double.isNaN(max)) {
                Tensor le = v.le(max);
                pass = pass == null ? le : pass.logicalAnd(le);
            }
            return grads(pass == null ? g : Tensor.where(pass, g, 0.0));
        });
    }

    static Variable where(Tensor cond, Variable a, Variable b) {
        Tensor y = Tensor.where(cond, a.data, b.data);
        Op op = Op.of("where", y, a, b).save(cond);
        if (!a.data.allFinite() || !b.data.allFinite()) {
            op.allowNonFinite();
        }
        return op.backward((g, n) -> {
            Tensor c = n.saved(0);
            return grads(
                    n.needs(0) ? Tensor.where(c, g, 0.0) : null,
                    n.needs(1) ? Tensor.where(c, 0.0, g) : null);
        });
    }

    static Variable maskedFill(Variable x, Tensor mask, double value) {
        Tensor y = x.data.maskedFill(mask, value);
        Op op = Op.of("masked_fill", y, x).save(mask);
        if (!Double.isFinite(value)) {
            op.allowNonFinite();
        }
        return op.backward((g, n) -> grads(g.maskedFill(n.saved(0), 0.0)));
    }
}
