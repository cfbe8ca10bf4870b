package dev.jgrad.tensor.internal.kernels;

import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorSpecies;

/**
 * Layer normalisation's rows with the Vector API: each row's sums in float lanes, added up in double
 * ({@link VectorMath#addLanes}), and every element by the plain kernel's float operations in its order (no fused
 * multiply-adds), so that given the same statistics both write the same bits. The tail of a row past the last whole
 * vector runs the plain loop. Loaded only where jdk.incubator.vector is present.
 */
final class VectorNorm implements NormKernels {
    private static final VectorSpecies<Float> S = VectorMath.S;
    private static final int L = VectorMath.L;

    @Override
    public void forwardRow(float[] x, int xo, int c, float[] w, int wo, float[] b, int bo, double eps, float[] out, int oo,
                           float[] mean, float[] rstd, int r) {
        int bound = S.loopBound(c);
        FloatVector acc = FloatVector.zero(S);
        for (int j = 0; j < bound; j += L) {
            acc = acc.add(FloatVector.fromArray(S, x, xo + j));
        }
        double s = VectorMath.addLanes(acc);
        for (int j = bound; j < c; j++) {
            s += x[xo + j];
        }
        float m = (float) (s / c);
        FloatVector vm = FloatVector.broadcast(S, m);
        FloatVector sq = FloatVector.zero(S);
        for (int j = 0; j < bound; j += L) {
            FloatVector d = FloatVector.fromArray(S, x, xo + j).sub(vm);
            sq = sq.add(d.mul(d));
        }
        double v = VectorMath.addLanes(sq);
        for (int j = bound; j < c; j++) {
            float d = x[xo + j] - m;
            v += d * d;
        }
        float inv = (float) (1.0 / Math.sqrt(v / c + eps));
        mean[r] = m;
        rstd[r] = inv;
        FloatVector vi = FloatVector.broadcast(S, inv);
        for (int j = 0; j < bound; j += L) {
            FloatVector y = FloatVector.fromArray(S, x, xo + j).sub(vm).mul(vi);
            if (w != null) {
                y = y.mul(FloatVector.fromArray(S, w, wo + j));
            }
            if (b != null) {
                y = y.add(FloatVector.fromArray(S, b, bo + j));
            }
            y.intoArray(out, oo + j);
        }
        PlainNorm.normalise(x, xo, c, w, wo, b, bo, m, inv, out, oo, bound);
    }

    @Override
    public void backwardRow(float[] g, int go, float[] x, int xo, int c, float[] w, int wo, float m, float rstd, float[] dx, int dxo) {
        int bound = S.loopBound(c);
        FloatVector vm = FloatVector.broadcast(S, m);
        FloatVector vr = FloatVector.broadcast(S, rstd);
        FloatVector accG = FloatVector.zero(S);
        FloatVector accGx = FloatVector.zero(S);
        for (int j = 0; j < bound; j += L) {
            FloatVector gw = FloatVector.fromArray(S, g, go + j);
            if (w != null) {
                gw = gw.mul(FloatVector.fromArray(S, w, wo + j));
            }
            FloatVector xhat = FloatVector.fromArray(S, x, xo + j).sub(vm).mul(vr);
            accG = accG.add(gw);
            accGx = accGx.add(gw.mul(xhat));
        }
        double sumG = VectorMath.addLanes(accG);
        double sumGx = VectorMath.addLanes(accGx);
        for (int j = bound; j < c; j++) {
            float gw = w == null ? g[go + j] : g[go + j] * w[wo + j];
            sumG += gw;
            sumGx += gw * ((x[xo + j] - m) * rstd);
        }
        float meanG = (float) (sumG / c);
        float meanGx = (float) (sumGx / c);
        FloatVector vg = FloatVector.broadcast(S, meanG);
        FloatVector vgx = FloatVector.broadcast(S, meanGx);
        for (int j = 0; j < bound; j += L) {
            FloatVector gw = FloatVector.fromArray(S, g, go + j);
            if (w != null) {
                gw = gw.mul(FloatVector.fromArray(S, w, wo + j));
            }
            FloatVector xhat = FloatVector.fromArray(S, x, xo + j).sub(vm).mul(vr);
            vr.mul(gw.sub(vg).sub(xhat.mul(vgx))).intoArray(dx, dxo + j);
        }
        PlainNorm.inputGradient(g, go, x, xo, c, w, wo, m, rstd, meanG, meanGx, dx, dxo, bound);
    }

    @Override
    public void paramRow(float[] g, int go, float[] x, int xo, int c, float m, float rstd, float[] sw, float[] sb) {
        int bound = S.loopBound(c);
        FloatVector vm = FloatVector.broadcast(S, m);
        FloatVector vr = FloatVector.broadcast(S, rstd);
        for (int j = 0; j < bound; j += L) {
            FloatVector gv = FloatVector.fromArray(S, g, go + j);
            if (sw != null) {
                FloatVector t = gv.mul(FloatVector.fromArray(S, x, xo + j).sub(vm).mul(vr));
                FloatVector.fromArray(S, sw, j).add(t).intoArray(sw, j);
            }
            if (sb != null) {
                FloatVector.fromArray(S, sb, j).add(gv).intoArray(sb, j);
            }
        }
        PlainNorm.paramRange(g, go, x, xo, c, m, rstd, sw, sb, bound);
    }
}
