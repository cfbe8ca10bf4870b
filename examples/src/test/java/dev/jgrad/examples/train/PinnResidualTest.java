package dev.jgrad.examples.train;

import dev.jgrad.autograd.NoGrad;
import dev.jgrad.autograd.Variable;
import dev.jgrad.nn.Linear;
import dev.jgrad.nn.Sequential;
import dev.jgrad.nn.Tanh;
import dev.jgrad.tensor.Generator;
import dev.jgrad.tensor.Tensor;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The PDE residuals of the physics-informed trainer, whose second derivatives come from createGraph, against the
 * same residuals from central second differences of the network's output (float32, h = 1e-2: about 1e-3 off).
 */
class PinnResidualTest {
    private static Sequential net(int in, long seed) {
        Generator g = new Generator(seed);
        return new Sequential(new Linear(in, 12, true, g), new Tanh(), new Linear(12, 7, true, g), new Tanh(), new Linear(7, 1, true, g));
    }

    private static double[] u(Sequential net, float[] points, int dim) {
        try (NoGrad g = NoGrad.enter()) {
            return net.forward(Variable.of(Tensor.of(points, points.length / dim, dim))).data().toDoubleArray();
        }
    }

    /** The Laplacian by central second differences, one coordinate at a time. */
    private static double[] laplacian(Sequential net, float[] p, int dim, float h) {
        int n = p.length / dim;
        double[] centre = u(net, p, dim);
        double[] lap = new double[n];
        for (int d = 0; d < dim; d++) {
            float[] plus = p.clone();
            float[] minus = p.clone();
            for (int i = 0; i < n; i++) {
                plus[i * dim + d] += h;
                minus[i * dim + d] -= h;
            }
            double[] up = u(net, plus, dim);
            double[] down = u(net, minus, dim);
            for (int i = 0; i < n; i++) {
                lap[i] += (up[i] - 2 * centre[i] + down[i]) / ((double) h * h);
            }
        }
        return lap;
    }

    private static void residualMatchesDifferences(PinnExample.Pde pde, int seed) {
        Sequential net = net(pde.dim(), seed);
        Tensor points = pde.interior(new Generator(seed), 9);
        float[] p = points.toFloatArray();
        double[] got = pde.residual(net, Variable.of(points, true)).data().toDoubleArray();
        double[] lap = laplacian(net, p, pde.dim(), 1e-2f);
        Tensor f = pde.exact(points).mul(pde.dim() * Math.PI * Math.PI);
        double[] source = f.toDoubleArray();
        assertArrayEquals(new int[] {9, 1}, pde.residual(net, Variable.of(points, true)).shape());
        for (int i = 0; i < got.length; i++) {
            double want = -lap[i] - source[i];
            assertEquals(want, got[i], 2e-3 * (1 + Math.abs(want)), "point " + i);
        }
    }

    @Test
    void oneDimensionalPoisson() {
        residualMatchesDifferences(new PinnExample.Poisson1d(), 3);
    }

    @Test
    void twoDimensionalPoisson() {
        residualMatchesDifferences(new PinnExample.Poisson2d(), 4);
    }

    @Test
    void theExactSolutionHasNoResidualWhereTheSourceIsItsLaplacian() {
        // The source of each problem is -Laplacian(exact): sin(pi x) has -u'' = pi^2 sin(pi x), and so on.
        PinnExample.Poisson2d pde = new PinnExample.Poisson2d();
        Tensor grid = pde.grid();
        assertArrayEquals(new int[] {101 * 101, 1}, pde.exact(grid).shape());
        assertEquals(0.0, pde.exact(pde.boundary(new Generator(1), 40)).abs().amax().item(), 1e-6, "u = 0 on every edge");
        PinnExample.Poisson1d line = new PinnExample.Poisson1d();
        assertEquals(0.0, line.exact(line.boundary(new Generator(1), 4)).abs().amax().item(), 1e-6);
    }
}
