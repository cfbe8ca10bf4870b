package dev.jgrad.autograd;

import dev.jgrad.tensor.DType;
import dev.jgrad.tensor.Index;
import dev.jgrad.tensor.ScatterReduce;
import dev.jgrad.tensor.Shape;
import dev.jgrad.tensor.Tensor;
import org.junit.jupiter.api.Test;

import java.util.function.Function;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every primitive's backward rule against central differences in float64, over random shapes with
 * broadcasting. Each test draws fresh shapes {@link #TRIALS} times.
 */
class GradCheckPropertyTest {
    private static final int TRIALS = 12;

    private static void check(String what, Function<Variable[], Variable> fn, Tensor... inputs) {
        GradCheck.Result r = GradCheck.check(fn, inputs);
        int[][] shapes = java.util.Arrays.stream(inputs).map(Tensor::shape).toArray(int[][]::new);
        assertTrue(r.passed(), what + " with inputs " + RandomShapes.str(shapes) + ": " + r);
    }

    @Test
    void binaryOpsWithBroadcasting() {
        RandomShapes rs = new RandomShapes(1);
        for (int t = 0; t < TRIALS; t++) {
            int[][] p = rs.broadcastPair();
            Tensor a = rs.normal(p[0]);
            Tensor b = rs.normal(p[1]);
            check("add", v -> v[0].add(v[1]), a, b);
            check("sub", v -> v[0].sub(v[1]), a, b);
            check("mul", v -> v[0].mul(v[1]), a, b);
            check("div", v -> v[0].div(v[1]), a, rs.awayFromZero(p[1]));
            check("pow", v -> v[0].pow(v[1]), rs.uniform(0.5, 2, p[0]), b);
            check("maximum", v -> v[0].maximum(v[1]), a, b);
            check("minimum", v -> v[0].minimum(v[1]), a, b);
        }
    }

    @Test
    void scalarOperandsOnEitherSide() {
        RandomShapes rs = new RandomShapes(2);
        for (int t = 0; t < TRIALS; t++) {
            int[] s = rs.shape(0, 3);
            Tensor a = rs.normal(s);
            Tensor pos = rs.uniform(0.5, 2, s);
            check("add scalar", v -> v[0].add(1.5), a);
            check("rsub", v -> v[0].rsub(2.5), a);
            check("mul scalar", v -> v[0].mul(-3.0), a);
            check("div scalar", v -> v[0].div(4.0), a);
            check("rdiv", v -> v[0].rdiv(2.0), rs.awayFromZero(s));
            check("pow scalar", v -> v[0].pow(2.5), pos);
            check("rpow", v -> v[0].rpow(1.7), a);
        }
    }

    @Test
    void unaryOps() {
        RandomShapes rs = new RandomShapes(3);
        for (int t = 0; t < TRIALS; t++) {
            int[] s = rs.shape(0, 3);
            Tensor a = rs.normal(s);
            Tensor pos = rs.uniform(0.3, 3, s);
            Tensor kinkless = rs.awayFromZero(s);
            check("neg", v -> v[0].neg(), a);
            check("abs", v -> v[0].abs(), kinkless);
            check("exp", v -> v[0].exp(), a);
            check("log", v -> v[0].log(), pos);
            check("log1p", v -> v[0].log1p(), pos);
            check("sqrt", v -> v[0].sqrt(), pos);
            check("rsqrt", v -> v[0].rsqrt(), pos);
            check("sin", v -> v[0].sin(), a);
            check("cos", v -> v[0].cos(), a);
            check("tanh", v -> v[0].tanh(), a);
            check("sigmoid", v -> v[0].sigmoid(), a);
            check("relu", v -> v[0].relu(), kinkless);
            check("silu", v -> v[0].silu(), a);
            check("gelu", v -> v[0].gelu(), a);
            check("gelu tanh", v -> v[0].gelu(true), a);
            check("square", v -> v[0].square(), a);
            check("reciprocal", v -> v[0].reciprocal(), kinkless);
            check("erf", v -> v[0].erf(), a);
            check("clamp", v -> v[0].clamp(-0.5, 0.7), kinkless.mul(Tensor.scalar(1.3, DType.FLOAT64)));
            check("clampMin", v -> v[0].clampMin(0.1), kinkless);
        }
    }

    @Test
    void whereAndMaskedFillBroadcast() {
        RandomShapes rs = new RandomShapes(4);
        for (int t = 0; t < TRIALS; t++) {
            int[][] p = rs.broadcastPair();
            int[] out = Shape.broadcast(p[0], p[1]);
            int[] cs = out.length > 0 && rs.nextBoolean() ? java.util.Arrays.copyOfRange(out, 1, out.length) : out;
            Tensor c = rs.normal(cs).gt(0.0);
            check("where", v -> Variable.where(Variable.of(c), v[0], v[1]), rs.normal(p[0]), rs.normal(p[1]));
            check("where scalar", v -> Variable.where(Variable.of(c), v[0], -1.0), rs.normal(p[0]));
            Tensor m = rs.normal(cs).gt(0.0);
            check("masked_fill", v -> v[0].maskedFill(m, -2.0), rs.normal(out));
        }
    }

    @Test
    void reductionsOverRandomDims() {
        RandomShapes rs = new RandomShapes(5);
        for (int t = 0; t < TRIALS; t++) {
            int[] s = rs.shape(1, 4);
            int[] dims = randomDims(rs, s.length);
            boolean keep = rs.nextBoolean();
            Tensor a = rs.normal(s);
            check("sum" + Shape.str(dims), v -> v[0].sum(dims, keep), a);
            check("mean", v -> v[0].mean(dims, keep), a);
            check("prod", v -> v[0].prod(dims, keep), rs.uniform(0.5, 1.5, s));
            check("amax", v -> v[0].amax(dims, keep), a);
            check("amin", v -> v[0].amin(dims, keep), a);
            check("logsumexp", v -> v[0].logsumexp(dims, keep), a);
            check("var", v -> v[0].var(dims, 1, keep), a);
            int d = rs.nextInt(s.length) - (rs.nextBoolean() ? s.length : 0);
            check("softmax", v -> v[0].softmax(d), a);
            check("log_softmax", v -> v[0].logSoftmax(d), a);
            check("max(dim)", v -> v[0].max(d, keep).values(), a);
            check("sum all", v -> v[0].sum(), a);
            check("mean all", v -> v[0].mean(), a);
        }
    }

    @Test
    void prodWithZerosHasExactGradients() {
        Tensor a = Tensor.of(new double[] {2, 0, 3, 0, 0, 5}, 2, 3);
        check("prod with zeros", v -> v[0].prod(1, false), a);
        check("prod all with one zero", v -> v[0].prod(), Tensor.of(new double[] {2, 0, 3}, 3));
    }

    @Test
    void amaxSplitsTheGradientAmongTies() {
        Variable x = Variable.of(Tensor.of(new float[] {1, 3, 3, 2}, 4), true);
        x.amax().backward();
        org.junit.jupiter.api.Assertions.assertArrayEquals(new float[] {0, 0.5f, 0.5f, 0}, x.grad().toFloatArray());
    }

    private static int[] randomDims(RandomShapes rs, int n) {
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
        return java.util.Arrays.copyOf(all, count);
    }

    @Test
    void views() {
        RandomShapes rs = new RandomShapes(6);
        for (int t = 0; t < TRIALS; t++) {
            int[] s = rs.shape(2, 4);
            Tensor a = rs.normal(s);
            int n = s.length;
            int d0 = rs.nextInt(n);
            int d1 = rs.nextInt(n);
            check("reshape", v -> v[0].reshape(-1), a);
            check("view", v -> v[0].view(s[0], -1), a);
            check("transpose", v -> v[0].transpose(d0, d1), a);
            check("permute", v -> v[0].permute(reversed(n)), a);
            check("unsqueeze/squeeze", v -> v[0].unsqueeze(d0).mul(v[0].unsqueeze(d0)).squeeze(d0), a);
            check("flatten", v -> v[0].flatten(0, 1), a);
            check("unflatten", v -> v[0].unflatten(0, 1, s[0]), a);
            check("movedim", v -> v[0].movedim(d0, d1), a);
            check("slice", v -> v[0].slice(d0, 1, s[d0], 2), a);
            check("select", v -> v[0].select(d0, s[d0] - 1), a);
            check("narrow", v -> v[0].narrow(d0, 1, s[d0] - 1), a);
            check("diagonal", v -> v[0].diagonal(0, 0, 1), a);
            int[] stretched = new int[n + 1];
            stretched[0] = 3;
            System.arraycopy(s, 0, stretched, 1, n);
            check("expand", v -> v[0].unsqueeze(0).expand(stretched).mul(v[0]), a);
            check("split", v -> v[0].split(2, d0).get(0).mul(v[0].split(2, d0).get(0)), a);
            check("chunk", v -> v[0].chunk(2, d0).get(1).exp(), a);
            check("tensor_split", v -> v[0].tensorSplit(3, d0).get(2).exp(), a);
            check("unbind", v -> v[0].unbind(d0).get(1).square(), a);
            check("contiguous", v -> v[0].transpose(0, 1).contiguous().exp(), a);
            check("clone", v -> v[0].clone().square(), a);
            check("flip", v -> v[0].flip(d0).mul(v[0]), a);
            check("sumTo", v -> v[0].sumTo(s[n - 1]), a);
        }
    }

    private static int[] reversed(int n) {
        int[] p = new int[n];
        for (int i = 0; i < n; i++) {
            p[i] = n - 1 - i;
        }
        return p;
    }

    @Test
    void indexingGatherScatterAndJoining() {
        RandomShapes rs = new RandomShapes(7);
        for (int t = 0; t < TRIALS; t++) {
            int[] s = {3 + rs.nextInt(3), 2 + rs.nextInt(3), 4};
            Tensor a = rs.normal(s);
            Tensor rows = Tensor.of(rs.positions(5, s[0]), 5);
            Tensor cols = Tensor.of(rs.positions(5, s[2]), 5);
            check("index advanced", v -> v[0].index(Index.of(rows), Index.ALL, Index.of(cols)), a);
            check("index basic", v -> v[0].index(Index.at(-1), Index.slice(0, 2)), a);
            Tensor mask = rs.normal(s).gt(0.0);
            check("index bool", v -> v[0].index(Index.of(mask)), a);
            Tensor gi = Tensor.of(rs.positions(s[0] * s[1] * 2, s[2]), s[0], s[1], 2);
            check("gather", v -> v[0].gather(2, gi), a);
            Tensor along = Tensor.of(rs.positions(2, s[2]), 1, 1, 2);
            check("take_along_dim", v -> v[0].takeAlongDim(along, 2), a);
            Tensor si = Tensor.of(rs.positions(s[0] * s[1], s[2]), s[0], s[1], 1);
            Tensor src = rs.normal(s[0], s[1], 1);
            check("scatter", v -> v[0].scatter(2, si, v[1]), a, src);
            check("scatter_add", v -> v[0].scatterAdd(2, gi, v[1]), a, rs.normal(s[0], s[1], 2));
            check("scatter_reduce sum", v -> v[0].scatterReduce(2, gi, v[1], ScatterReduce.SUM, false), a, rs.normal(s[0], s[1], 2));
            check("scatter_reduce mean", v -> v[0].scatterReduce(2, gi, v[1], ScatterReduce.MEAN, true), a, rs.normal(s[0], s[1], 2));
            check("scatter_reduce amax", v -> v[0].scatterReduce(2, gi, v[1], ScatterReduce.AMAX, true), a, rs.normal(s[0], s[1], 2));
            check("index_select", v -> v[0].indexSelect(0, rows), a);
            check("index_add", v -> v[0].indexAdd(0, rows, v[1]), a, rs.normal(5, s[1], s[2]));
            check("index_put", v -> v[0].indexPut(new Index[] {Index.of(rows)}, v[1], true), a, rs.normal(s[1], s[2]));
            check("index_put overwrite", v -> v[0].indexPut(new Index[] {Index.of(0, 2)}, v[1], false), a, rs.normal(s[2]));
            check("cat", v -> Variable.cat(1, v[0], v[1]), a, rs.normal(s[0], 3, s[2]));
            check("stack", v -> Variable.stack(-1, v[0], v[1]), a, rs.normal(s));
        }
    }

    @Test
    void matmulOfEveryRankWithBatchBroadcasting() {
        RandomShapes rs = new RandomShapes(8);
        int[][][] cases = {
            {{4}, {4}}, {{3, 4}, {4}}, {{4}, {4, 2}}, {{3, 4}, {4, 5}}, {{2, 3, 4}, {4, 5}}, {{3, 4}, {2, 4, 5}},
            {{2, 1, 3, 4}, {5, 4, 2}}, {{4}, {2, 4, 3}}, {{2, 3, 4}, {4}}, {{0, 3}, {3, 2}}, {{2, 3, 0}, {0, 4}}};
        for (int[][] c : cases) {
            check("matmul " + RandomShapes.str(c), v -> v[0].matmul(v[1]), rs.normal(c[0]), rs.normal(c[1]));
        }
        check("linear", v -> Variable.linear(v[0], v[1], v[2]), rs.normal(2, 3, 5), rs.normal(4, 5), rs.normal(4));
        check("linear no bias, 1-d input", v -> Variable.linear(v[0], v[1], null), rs.normal(5), rs.normal(4, 5));
        check("einsum attention", v -> Variable.einsum("bhqd,bhkd->bhqk", v[0], v[1]), rs.normal(2, 3, 4, 5), rs.normal(2, 3, 6, 5));
        check("einsum diag", v -> Variable.einsum("ii->i", v[0]), rs.normal(4, 4));
        check("einsum outer", v -> Variable.einsum("i,j->ij", v[0], v[1]), rs.normal(3), rs.normal(5));
        check("einsum ellipsis", v -> Variable.einsum("...ij,...jk->...ik", v[0], v[1]), rs.normal(2, 3, 4), rs.normal(2, 4, 2));
    }

    @Test
    void inPlaceOpsOnNonLeaves() {
        RandomShapes rs = new RandomShapes(9);
        for (int t = 0; t < TRIALS; t++) {
            int[][] p = rs.broadcastPair();
            int[] out = Shape.broadcast(p[0], p[1]);
            Tensor a = rs.normal(out);
            Tensor b = rs.normal(p[1].length <= out.length ? p[1] : out);
            check("addi", v -> v[0].mul(1.0).addi(v[1]), a, b);
            check("subi", v -> v[0].mul(1.0).subi(v[1]), a, b);
            check("muli", v -> v[0].mul(1.0).muli(v[1]), a, b);
            check("divi", v -> v[0].mul(1.0).divi(v[1]), a, rs.awayFromZero(b.shape()));
            check("muli scalar", v -> v[0].exp().add(0.0).muli(3.0), a);
            Tensor m = rs.normal(out).gt(0.0);
            check("maskedFilli", v -> v[0].mul(2.0).maskedFilli(m, 0.5), a);
            check("copyFrom", v -> v[0].mul(2.0).copyFrom(v[1]), a, b);
        }
    }
}
