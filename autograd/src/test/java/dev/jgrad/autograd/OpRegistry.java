package dev.jgrad.autograd;

import dev.jgrad.tensor.DType;
import dev.jgrad.tensor.Index;
import dev.jgrad.tensor.ScatterReduce;
import dev.jgrad.tensor.Shape;
import dev.jgrad.tensor.Tensor;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Function;

import static dev.jgrad.autograd.OpInfo.of;

/**
 * Every differentiable op of {@link Variable}, one row each (PyTorch's {@code op_db}): the gradient check, and every
 * later property test over ops, iterates {@link #ALL}. {@code OpRegistryCoverageTest} fails when a public method of
 * Variable or an elementwise op of the tables has no row here, so a new op cannot be left out of the checks.
 */
final class OpRegistry {
    private OpRegistry() {
    }

    private static OpInfo.Sample s(Function<Variable[], Variable> fn, Tensor... inputs) {
        return new OpInfo.Sample(fn, inputs);
    }

    static final List<OpInfo> ALL = build();

    private static List<OpInfo> build() {
        List<OpInfo> ops = new ArrayList<>();
        binary(ops);
        scalar(ops);
        unary(ops);
        selection(ops);
        reductions(ops);
        views(ops);
        indexing(ops);
        linalg(ops);
        inPlace(ops);
        return List.copyOf(ops);
    }

    /** Two operands whose shapes broadcast together, either one stretched. */
    private static void binary(List<OpInfo> ops) {
        ops.add(of("add", rs -> { int[][] p = rs.broadcastPair(); return s(v -> v[0].add(v[1]), rs.normal(p[0]), rs.normal(p[1])); }));
        ops.add(of("sub", rs -> { int[][] p = rs.broadcastPair(); return s(v -> v[0].sub(v[1]), rs.normal(p[0]), rs.normal(p[1])); }));
        ops.add(of("mul", rs -> { int[][] p = rs.broadcastPair(); return s(v -> v[0].mul(v[1]), rs.normal(p[0]), rs.normal(p[1])); }));
        ops.add(of("div", rs -> { int[][] p = rs.broadcastPair(); return s(v -> v[0].div(v[1]), rs.normal(p[0]), rs.awayFromZero(p[1])); })
                .domain("divisor away from 0"));
        ops.add(of("pow", rs -> { int[][] p = rs.broadcastPair(); return s(v -> v[0].pow(v[1]), rs.uniform(0.5, 2, p[0]), rs.normal(p[1])); })
                .domain("base in [0.5, 2)"));
        ops.add(of("maximum", rs -> { int[][] p = rs.broadcastPair(); return s(v -> v[0].maximum(v[1]), rs.normal(p[0]), rs.normal(p[1])); }));
        ops.add(of("atan2", rs -> { int[][] p = rs.broadcastPair(); return s(v -> v[0].atan2(v[1]), rs.normal(p[0]), rs.awayFromZero(p[1])); })
                .domain("b away from 0"));
        ops.add(of("minimum", rs -> { int[][] p = rs.broadcastPair(); return s(v -> v[0].minimum(v[1]), rs.normal(p[0]), rs.normal(p[1])); }));
    }

    /** A Python number on either side of the op. */
    private static void scalar(List<OpInfo> ops) {
        ops.add(of("add scalar", rs -> s(v -> v[0].add(1.5), rs.normal(rs.shape(0, 3)))));
        ops.add(of("rsub", rs -> s(v -> v[0].rsub(2.5), rs.normal(rs.shape(0, 3)))));
        ops.add(of("mul scalar", rs -> s(v -> v[0].mul(-3.0), rs.normal(rs.shape(0, 3)))));
        ops.add(of("div scalar", rs -> s(v -> v[0].div(4.0), rs.normal(rs.shape(0, 3)))));
        ops.add(of("rdiv", rs -> s(v -> v[0].rdiv(2.0), rs.awayFromZero(rs.shape(0, 3)))).domain("away from 0"));
        ops.add(of("pow scalar", rs -> s(v -> v[0].pow(2.5), rs.uniform(0.3, 3, rs.shape(0, 3)))).domain("positive"));
        ops.add(of("rpow", rs -> s(v -> v[0].rpow(1.7), rs.normal(rs.shape(0, 3)))));
    }

    private static OpInfo unaryOp(String name, Function<Variable, Variable> fn) {
        return of(name, rs -> s(v -> fn.apply(v[0]), rs.normal(rs.shape(0, 3))));
    }

    private static OpInfo positive(String name, Function<Variable, Variable> fn) {
        return of(name, rs -> s(v -> fn.apply(v[0]), rs.uniform(0.3, 3, rs.shape(0, 3)))).domain("positive");
    }

    /** Away from the kink or the pole at 0, where the derivative jumps or does not exist. */
    private static OpInfo awayFromZero(String name, Function<Variable, Variable> fn) {
        return of(name, rs -> s(v -> fn.apply(v[0]), rs.awayFromZero(rs.shape(0, 3)))).domain("away from 0");
    }

    private static void unary(List<OpInfo> ops) {
        ops.add(unaryOp("neg", Variable::neg));
        ops.add(awayFromZero("abs", Variable::abs));
        ops.add(unaryOp("sign", Variable::sign));
        ops.add(unaryOp("exp", Variable::exp));
        ops.add(positive("log", Variable::log));
        ops.add(positive("log1p", Variable::log1p));
        ops.add(positive("sqrt", Variable::sqrt));
        ops.add(positive("rsqrt", Variable::rsqrt));
        ops.add(unaryOp("sin", Variable::sin));
        ops.add(unaryOp("cos", Variable::cos));
        ops.add(unaryOp("tanh", Variable::tanh));
        ops.add(unaryOp("atan", Variable::atan));
        ops.add(unaryOp("sigmoid", Variable::sigmoid));
        ops.add(awayFromZero("relu", Variable::relu));
        ops.add(awayFromZero("leakyRelu", x -> x.leakyRelu(0.2)));
        ops.add(unaryOp("silu", Variable::silu));
        ops.add(unaryOp("gelu", Variable::gelu));
        ops.add(unaryOp("gelu tanh", x -> x.gelu(true)));
        ops.add(unaryOp("softplus", Variable::softplus));
        ops.add(awayFromZero("elu", x -> x.elu(0.7)));
        ops.add(unaryOp("mish", Variable::mish));
        ops.add(unaryOp("square", Variable::square));
        ops.add(awayFromZero("reciprocal", Variable::reciprocal));
        ops.add(unaryOp("erf", Variable::erf));
        ops.add(of("floor", rs -> s(v -> v[0].floor(), rs.uniform(0.1, 0.9, rs.shape(0, 3)).add(Tensor.scalar(2.0, DType.FLOAT64))))
                .domain("away from integers"));
        ops.add(of("round", rs -> s(v -> v[0].round(), rs.uniform(0.1, 0.4, rs.shape(0, 3)).add(Tensor.scalar(2.0, DType.FLOAT64))))
                .domain("away from integers and halves"));
        ops.add(unaryOp("expm1", Variable::expm1));
        ops.add(of("clamp", rs -> s(v -> v[0].clamp(-0.5, 0.7), rs.awayFromZero(rs.shape(0, 3)).mul(Tensor.scalar(1.3, DType.FLOAT64))))
                .domain("away from the bounds"));
        ops.add(awayFromZero("clampMin", x -> x.clampMin(0.1)));
        ops.add(awayFromZero("clampMax", x -> x.clampMax(-0.1)));
    }

    /** A bool condition picks between two operands, all three broadcast. */
    private static void selection(List<OpInfo> ops) {
        ops.add(of("where", rs -> {
            int[][] p = rs.broadcastPair();
            Tensor c = rs.normal(conditionShape(rs, Shape.broadcast(p[0], p[1]))).gt(0.0);
            return s(v -> Variable.where(Variable.of(c), v[0], v[1]), rs.normal(p[0]), rs.normal(p[1]));
        }));
        ops.add(of("where scalar", rs -> {
            int[] out = rs.shape(0, 3);
            Tensor c = rs.normal(conditionShape(rs, out)).gt(0.0);
            return s(v -> Variable.where(Variable.of(c), v[0], -1.0), rs.normal(out));
        }));
        ops.add(of("maskedFill", rs -> {
            int[] out = rs.shape(0, 3);
            Tensor m = rs.normal(conditionShape(rs, out)).gt(0.0);
            return s(v -> v[0].maskedFill(m, -2.0), rs.normal(out));
        }));
    }

    /** The output's shape, or the output's shape less its leading dim (so the condition broadcasts). */
    private static int[] conditionShape(RandomShapes rs, int[] out) {
        return out.length > 0 && rs.nextBoolean() ? Arrays.copyOfRange(out, 1, out.length) : out;
    }

    /** A reduction over random dims of a random shape, with and without keepdim. */
    private static OpInfo reduction(String name, Reduction fn, boolean positive) {
        return of(name, rs -> {
            int[] shape = rs.shape(1, 4);
            int[] dims = randomDims(rs, shape.length);
            boolean keep = rs.nextBoolean();
            return s(v -> fn.apply(v[0], dims, keep), positive ? rs.uniform(0.5, 1.5, shape) : rs.normal(shape));
        });
    }

    @FunctionalInterface
    private interface Reduction {
        Variable apply(Variable x, int[] dims, boolean keepdim);
    }

    /** An op along one dim, given as a negative index half the time. */
    private static OpInfo alongDim(String name, DimOp fn) {
        return of(name, rs -> {
            int[] shape = rs.shape(1, 4);
            int d = rs.nextInt(shape.length) - (rs.nextBoolean() ? shape.length : 0);
            boolean keep = rs.nextBoolean();
            return s(v -> fn.apply(v[0], d, keep), rs.normal(shape));
        });
    }

    @FunctionalInterface
    private interface DimOp {
        Variable apply(Variable x, int dim, boolean keepdim);
    }

    private static void reductions(List<OpInfo> ops) {
        ops.add(reduction("sum", Variable::sum, false));
        ops.add(reduction("mean", Variable::mean, false));
        ops.add(reduction("prod", Variable::prod, true).domain("[0.5, 1.5)"));
        ops.add(reduction("amax", Variable::amax, false));
        ops.add(reduction("amin", Variable::amin, false));
        ops.add(reduction("logsumexp", Variable::logsumexp, false));
        ops.add(reduction("var", (x, dims, keep) -> x.var(dims, 1, keep), false));
        ops.add(reduction("std", (x, dims, keep) -> x.std(dims, 1, keep), false));
        ops.add(reduction("norm", (x, dims, keep) -> x.norm(2, dims, keep), false));
        ops.add(reduction("norm 1", (x, dims, keep) -> x.norm(1, dims, keep), false));
        ops.add(reduction("norm 1.5", (x, dims, keep) -> x.norm(1.5, dims, keep), false));
        ops.add(reduction("norm 3", (x, dims, keep) -> x.norm(3, dims, keep), false));
        ops.add(reduction("norm inf", (x, dims, keep) -> x.norm(Double.POSITIVE_INFINITY, dims, keep), false));
        ops.add(reduction("norm -inf", (x, dims, keep) -> x.norm(Double.NEGATIVE_INFINITY, dims, keep), false));
        ops.add(reduction("norm 0.5", (x, dims, keep) -> x.norm(0.5, dims, keep), true).domain("[0.5, 1.5)"));
        ops.add(reduction("norm -1", (x, dims, keep) -> x.norm(-1, dims, keep), true).domain("[0.5, 1.5)"));
        ops.add(alongDim("softmax", (x, d, keep) -> x.softmax(d)));
        ops.add(alongDim("cumsum", (x, d, keep) -> x.cumsum(d)));
        ops.add(alongDim("sort", (x, d, keep) -> x.sort(d, keep).values()));
        ops.add(alongDim("topk", (x, d, keep) -> x.topk(2, d, keep).values()));
        ops.add(alongDim("logSoftmax", (x, d, keep) -> x.logSoftmax(d)));
        ops.add(alongDim("max dim", (x, d, keep) -> x.max(d, keep).values()));
        ops.add(alongDim("min dim", (x, d, keep) -> x.min(d, keep).values()));
        ops.add(of("sum all", rs -> s(v -> v[0].sum(), rs.normal(rs.shape(1, 4)))));
        ops.add(of("mean all", rs -> s(v -> v[0].mean(), rs.normal(rs.shape(1, 4)))));
        ops.add(of("prod with zeros", rs -> s(v -> v[0].prod(1, false), Tensor.of(new double[] {2, 0, 3, 0, 0, 5}, 2, 3))));
        ops.add(of("prod all with one zero", rs -> s(v -> v[0].prod(), Tensor.of(new double[] {2, 0, 3}, 3))));
    }

    static int[] randomDims(RandomShapes rs, int n) {
        int count = 1 + rs.nextInt(n);
        int[] all = new int[n];
        for (int i = 0; i < n; i++) {
            all[i] = i;
        }
        for (int i = n - 1; i > 0; i--) {
            int j = rs.nextInt(i + 1);
            int tmp = all[i];
            all[i] = all[j];
            all[j] = tmp;
        }
        return Arrays.copyOf(all, count);
    }

    /** A view of a random shape of 2 to 4 dims, along random dims. */
    private static OpInfo view(String name, ViewOp fn) {
        return of(name, rs -> {
            int[] shape = rs.shape(2, 4);
            int d0 = rs.nextInt(shape.length);
            int d1 = rs.nextInt(shape.length);
            return s(v -> fn.apply(v[0], shape, d0, d1), rs.normal(shape));
        });
    }

    @FunctionalInterface
    private interface ViewOp {
        Variable apply(Variable x, int[] shape, int d0, int d1);
    }

    private static void views(List<OpInfo> ops) {
        ops.add(view("reshape", (x, s, d0, d1) -> x.reshape(-1)));
        ops.add(view("view", (x, s, d0, d1) -> x.view(s[0], -1)));
        ops.add(view("transpose", (x, s, d0, d1) -> x.transpose(d0, d1)));
        ops.add(view("t", (x, s, d0, d1) -> x.flatten(1, s.length - 1).t()));
        ops.add(view("mT", (x, s, d0, d1) -> x.mT()));
        ops.add(view("permute", (x, s, d0, d1) -> x.permute(reversed(s.length))));
        ops.add(view("unsqueeze", (x, s, d0, d1) -> x.unsqueeze(d0).mul(x.unsqueeze(d0)).squeeze(d0)).covers("squeeze"));
        ops.add(view("flatten", (x, s, d0, d1) -> x.flatten(0, 1)));
        ops.add(view("unflatten", (x, s, d0, d1) -> x.unflatten(0, 1, s[0])));
        ops.add(view("movedim", (x, s, d0, d1) -> x.movedim(d0, d1)));
        ops.add(view("slice", (x, s, d0, d1) -> x.slice(d0, 1, s[d0], 2)));
        ops.add(view("select", (x, s, d0, d1) -> x.select(d0, s[d0] - 1)));
        ops.add(view("narrow", (x, s, d0, d1) -> x.narrow(d0, 1, s[d0] - 1)));
        ops.add(view("diagonal", (x, s, d0, d1) -> x.diagonal(0, 0, 1)));
        ops.add(view("expand", (x, s, d0, d1) -> x.unsqueeze(0).expand(prepend(3, s)).mul(x)));
        ops.add(view("broadcastTo", (x, s, d0, d1) -> x.broadcastTo(prepend(3, s)).mul(x)));
        ops.add(view("expandAs", (x, s, d0, d1) -> x.expandAs(x.unsqueeze(0).expand(prepend(2, s))).mul(x)));
        ops.add(view("split", (x, s, d0, d1) -> x.split(2, d0).get(0).mul(x.split(2, d0).get(0))));
        ops.add(view("chunk", (x, s, d0, d1) -> x.chunk(2, d0).get(1).exp()));
        ops.add(view("tensorSplit", (x, s, d0, d1) -> x.tensorSplit(3, d0).get(2).exp()));
        ops.add(view("unbind", (x, s, d0, d1) -> x.unbind(d0).get(1).square()));
        ops.add(view("contiguous", (x, s, d0, d1) -> x.transpose(0, 1).contiguous().exp()));
        ops.add(view("clone", (x, s, d0, d1) -> x.clone().square()));
        ops.add(view("flip", (x, s, d0, d1) -> x.flip(d0).mul(x)));
        ops.add(view("tril", (x, s, d0, d1) -> x.tril(1)));
        ops.add(view("triu", (x, s, d0, d1) -> x.triu(-1)));
        ops.add(view("sumTo", (x, s, d0, d1) -> x.sumTo(s[s.length - 1])));
        ops.add(view("pad", (x, s, d0, d1) -> x.pad(new int[] {1, 2, 0, 1}, 0.5)));
        ops.add(view("unfold", (x, s, d0, d1) -> x.unfold(d0, 2, 1)));
        ops.add(view("repeat", (x, s, d0, d1) -> x.repeat(prepend(2, ones(s.length, d0, 3))).square()));
    }

    /** {@code n} ones, with {@code count} at {@code at}: repeat counts that tile one dim. */
    private static int[] ones(int n, int at, int count) {
        int[] r = new int[n];
        java.util.Arrays.fill(r, 1);
        r[at] = count;
        return r;
    }

    private static int[] reversed(int n) {
        int[] p = new int[n];
        for (int i = 0; i < n; i++) {
            p[i] = n - 1 - i;
        }
        return p;
    }

    private static int[] prepend(int size, int[] shape) {
        int[] out = new int[shape.length + 1];
        out[0] = size;
        System.arraycopy(shape, 0, out, 1, shape.length);
        return out;
    }

    /** An op on a (3-5, 2-4, 4) tensor with index tensors drawn inside its sizes. */
    private static OpInfo indexed(String name, IndexOp fn) {
        return of(name, rs -> fn.draw(rs, new int[] {3 + rs.nextInt(3), 2 + rs.nextInt(2) * 3, 4}));
    }

    @FunctionalInterface
    private interface IndexOp {
        OpInfo.Sample draw(RandomShapes rs, int[] s);
    }

    private static Tensor positions(RandomShapes rs, int bound, int... shape) {
        return Tensor.of(rs.positions(Shape.numel(shape), bound), shape);
    }

    private static void indexing(List<OpInfo> ops) {
        ops.add(indexed("index advanced", (rs, s) -> {
            Tensor rows = positions(rs, s[0], 5);
            Tensor cols = positions(rs, s[2], 5);
            return s(v -> v[0].index(Index.of(rows), Index.ALL, Index.of(cols)), rs.normal(s));
        }));
        ops.add(indexed("index basic", (rs, s) -> s(v -> v[0].index(Index.at(-1), Index.slice(0, 2)), rs.normal(s))));
        ops.add(indexed("index bool", (rs, s) -> {
            Tensor mask = rs.normal(s).gt(0.0);
            return s(v -> v[0].index(Index.of(mask)), rs.normal(s));
        }));
        ops.add(indexed("maskedSelect", (rs, s) -> {
            Tensor mask = rs.normal(s[1], s[2]).gt(0.0);
            return s(v -> v[0].maskedSelect(mask), rs.normal(s));
        }));
        ops.add(indexed("gather", (rs, s) -> {
            Tensor gi = positions(rs, s[2], s[0], s[1], 2);
            return s(v -> v[0].gather(2, gi), rs.normal(s));
        }));
        ops.add(indexed("takeAlongDim", (rs, s) -> {
            Tensor along = positions(rs, s[2], 1, 1, 2);
            return s(v -> v[0].takeAlongDim(along, 2), rs.normal(s));
        }));
        ops.add(indexed("scatter", (rs, s) -> {
            Tensor si = positions(rs, s[2], s[0], s[1], 1);
            return s(v -> v[0].scatter(2, si, v[1]), rs.normal(s), rs.normal(s[0], s[1], 1));
        }));
        ops.add(indexed("scatterAdd", (rs, s) -> {
            Tensor gi = positions(rs, s[2], s[0], s[1], 2);
            return s(v -> v[0].scatterAdd(2, gi, v[1]), rs.normal(s), rs.normal(s[0], s[1], 2));
        }));
        for (ScatterReduce how : new ScatterReduce[] {ScatterReduce.SUM, ScatterReduce.MEAN, ScatterReduce.AMAX}) {
            ops.add(indexed("scatterReduce " + how, (rs, s) -> {
                Tensor gi = positions(rs, s[2], s[0], s[1], 2);
                boolean includeSelf = how != ScatterReduce.SUM;
                return s(v -> v[0].scatterReduce(2, gi, v[1], how, includeSelf), rs.normal(s), rs.normal(s[0], s[1], 2));
            }));
        }
        ops.add(indexed("indexSelect", (rs, s) -> {
            Tensor rows = positions(rs, s[0], 5);
            return s(v -> v[0].indexSelect(0, rows), rs.normal(s));
        }));
        ops.add(indexed("indexAdd", (rs, s) -> {
            Tensor rows = positions(rs, s[0], 5);
            return s(v -> v[0].indexAdd(0, rows, v[1]), rs.normal(s), rs.normal(5, s[1], s[2]));
        }));
        ops.add(indexed("indexPut", (rs, s) -> {
            Tensor rows = positions(rs, s[0], 5);
            return s(v -> v[0].indexPut(new Index[] {Index.of(rows)}, v[1], true), rs.normal(s), rs.normal(s[1], s[2]));
        }));
        ops.add(indexed("indexPut overwrite", (rs, s) ->
                s(v -> v[0].indexPut(new Index[] {Index.of(0, 2)}, v[1], false), rs.normal(s), rs.normal(s[2]))));
        ops.add(indexed("cat", (rs, s) -> s(v -> Variable.cat(1, v[0], v[1]), rs.normal(s), rs.normal(s[0], 3, s[2]))));
        ops.add(indexed("stack", (rs, s) -> s(v -> Variable.stack(-1, v[0], v[1]), rs.normal(s), rs.normal(s))));
    }

    /** Products of every rank, with batch broadcasting and empty dims. */
    private static final int[][][] MATMUL_SHAPES = {
        {{4}, {4}}, {{3, 4}, {4}}, {{4}, {4, 2}}, {{3, 4}, {4, 5}}, {{2, 3, 4}, {4, 5}}, {{3, 4}, {2, 4, 5}},
        {{2, 1, 3, 4}, {5, 4, 2}}, {{4}, {2, 4, 3}}, {{2, 3, 4}, {4}}, {{0, 3}, {3, 2}}, {{2, 3, 0}, {0, 4}}};

    private static void linalg(List<OpInfo> ops) {
        ops.add(of("matmul", rs -> {
            int[][] c = MATMUL_SHAPES[rs.nextInt(MATMUL_SHAPES.length)];
            return s(v -> v[0].matmul(v[1]), rs.normal(c[0]), rs.normal(c[1]));
        }));
        ops.add(of("linear", rs -> s(v -> Variable.linear(v[0], v[1], v[2]), rs.normal(2, 3, 5), rs.normal(4, 5), rs.normal(4))));
        ops.add(of("linear no bias", rs -> s(v -> Variable.linear(v[0], v[1], null), rs.normal(5), rs.normal(4, 5))));
        ops.add(of("einsum attention", rs -> s(v -> Variable.einsum("bhqd,bhkd->bhqk", v[0], v[1]), rs.normal(2, 3, 4, 5), rs.normal(2, 3, 6, 5))));
        ops.add(of("einsum diag", rs -> s(v -> Variable.einsum("ii->i", v[0]), rs.normal(4, 4))));
        ops.add(of("einsum outer", rs -> s(v -> Variable.einsum("i,j->ij", v[0], v[1]), rs.normal(3), rs.normal(5))));
        ops.add(of("einsum ellipsis", rs -> s(v -> Variable.einsum("...ij,...jk->...ik", v[0], v[1]), rs.normal(2, 3, 4), rs.normal(2, 4, 2))));
    }

    /** An in-place op on a non-leaf (a leaf that requires grad refuses in-place ops, as in PyTorch). */
    private static OpInfo inPlace(String name, InPlaceOp fn) {
        return of(name, rs -> {
            int[][] p = rs.broadcastPair();
            int[] out = Shape.broadcast(p[0], p[1]);
            int[] other = p[1].length <= out.length ? p[1] : out;
            return fn.draw(rs, out, other);
        });
    }

    @FunctionalInterface
    private interface InPlaceOp {
        OpInfo.Sample draw(RandomShapes rs, int[] self, int[] other);
    }

    private static void inPlace(List<OpInfo> ops) {
        ops.add(inPlace("addi", (rs, a, b) -> s(v -> v[0].mul(1.0).addi(v[1]), rs.normal(a), rs.normal(b))));
        ops.add(inPlace("subi", (rs, a, b) -> s(v -> v[0].mul(1.0).subi(v[1]), rs.normal(a), rs.normal(b))));
        ops.add(inPlace("muli", (rs, a, b) -> s(v -> v[0].mul(1.0).muli(v[1]), rs.normal(a), rs.normal(b))));
        ops.add(inPlace("divi", (rs, a, b) -> s(v -> v[0].mul(1.0).divi(v[1]), rs.normal(a), rs.awayFromZero(b))).domain("divisor away from 0"));
        ops.add(inPlace("muli scalar", (rs, a, b) -> s(v -> v[0].exp().add(0.0).muli(3.0), rs.normal(a))));
        ops.add(inPlace("maskedFilli", (rs, a, b) -> {
            Tensor m = rs.normal(a).gt(0.0);
            return s(v -> v[0].mul(2.0).maskedFilli(m, 0.5), rs.normal(a));
        }));
        ops.add(inPlace("copyFrom", (rs, a, b) -> s(v -> v[0].mul(2.0).copyFrom(v[1]), rs.normal(a), rs.normal(b))));
    }
}
