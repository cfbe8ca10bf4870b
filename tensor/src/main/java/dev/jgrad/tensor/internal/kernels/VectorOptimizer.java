package dev.jgrad.tensor.internal.kernels;

import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;

/** The Vector API's optimizer updates: Adam in float32 (float64 runs the plain loop). Loaded only where jdk.incubator.vector is present. */
final class VectorOptimizer implements OptimizerKernels {
    private static final VectorSpecies<Float> S = VectorMath.S;
    private static final int L = VectorMath.L;
    private static final OptimizerKernels PLAIN = PlainKernels.PROVIDER.optimizer();

    /** Adam over n float32 elements; the plain loop does the tail, so both compute the same floats. */
    @Override
    public void adam(float[] p, int po, float[] g, int go, float[] m, int mo, float[] v, int vo, int n,
                     float b1, float b2, float l2, float stepSize, float bc2Sqrt, float eps) {
        FloatVector vb1 = FloatVector.broadcast(S, b1);
        FloatVector vb2 = FloatVector.broadcast(S, b2);
        FloatVector c1 = FloatVector.broadcast(S, 1 - b1);
        FloatVector c2 = FloatVector.broadcast(S, 1 - b2);
        FloatVector vl2 = FloatVector.broadcast(S, l2);
        FloatVector step = FloatVector.broadcast(S, stepSize);
        FloatVector bc = FloatVector.broadcast(S, bc2Sqrt);
        FloatVector ve = FloatVector.broadcast(S, eps);
        int i = 0;
        for (int bound = S.loopBound(n); i < bound; i += L) {
            FloatVector pv = FloatVector.fromArray(S, p, po + i);
            FloatVector gv = FloatVector.fromArray(S, g, go + i).add(pv.mul(vl2));
            FloatVector mv = FloatVector.fromArray(S, m, mo + i).mul(vb1).add(gv.mul(c1));
            FloatVector vv = FloatVector.fromArray(S, v, vo + i).mul(vb2).add(gv.mul(gv).mul(c2));
            mv = mv.blend(0f, mv.abs().compare(VectorOperators.LT, OptimizerKernels.FLUSH));
            vv = vv.blend(0f, vv.compare(VectorOperators.LT, OptimizerKernels.FLUSH));
            mv.intoArray(m, mo + i);
            vv.intoArray(v, vo + i);
            pv.sub(step.mul(mv).div(vv.sqrt().div(bc).add(ve))).intoArray(p, po + i);
        }
        PlainKernels.Optimizer.adamRange(p, po, g, go, m, mo, v, vo, i, n, b1, b2, l2, stepSize, bc2Sqrt, eps);
    }

    @Override
    public void adam(double[] p, int po, double[] g, int go, double[] m, int mo, double[] v, int vo, int n,
                     double b1, double b2, double l2, double stepSize, double bc2Sqrt, double eps) {
        PLAIN.adam(p, po, g, go, m, mo, v, vo, n, b1, b2, l2, stepSize, bc2Sqrt, eps);
    }
}
