package dev.jgrad.examples.train;

import dev.jgrad.autograd.Autograd;
import dev.jgrad.autograd.EnableGrad;
import dev.jgrad.autograd.NoGrad;
import dev.jgrad.autograd.Variable;
import dev.jgrad.examples.report.SolutionChart;
import dev.jgrad.nn.Init;
import dev.jgrad.nn.Linear;
import dev.jgrad.nn.Sequential;
import dev.jgrad.nn.Tanh;
import dev.jgrad.nn.optim.Adam;
import dev.jgrad.nn.optim.LrScheduler;
import dev.jgrad.tensor.Generator;
import dev.jgrad.tensor.Memory;
import dev.jgrad.tensor.Tensor;
import dev.jgrad.train.Batches;
import dev.jgrad.train.Evaluation;
import dev.jgrad.train.Fit;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A physics-informed network (Raissi et al.): a tanh MLP u(x) trained so that a PDE's residual, which needs u's
 * second derivatives with respect to its input, vanishes at collocation points drawn afresh every step, and u
 * vanishes on the boundary. The derivatives come from {@link Autograd#grad} with createGraph, and the loss is
 * differentiated through them. Each problem has a known solution, so the run reports the relative L2 error.
 */
public final class PinnExample {
    /** The PDEs on offer. */
    public enum Problem { POISSON1D, POISSON2D }

    public record Outcome(double relL2Error, double finalLoss, Path dir) {
    }

    /** Optimisation steps per epoch: one row of metrics and one progress line each. */
    static final int STEPS_PER_EPOCH = 100;
    private static final double BOUNDARY_WEIGHT = 10.0;

    private PinnExample() {
    }

    public static Outcome run(Problem problem, TrainOptions o, PrintStream out) {
        Pde pde = pde(problem);
        int epochs = o.epochs(pde.epochs());
        int batch = o.batchSize(pde.batch());
        double lr = o.lr(2e-3);
        int width = pde.width();
        // A step keeps, for every point and hidden unit, the forward pass and the two derivatives' passes through the three
        // tanh layers, and their backward: some 64 floats (an estimate within about two).
        HeapCheck.require("a PINN step on " + batch + " collocation points", 256L * batch * width, "a smaller --batch-size");
        Init.manualSeed(o.seed());
        Generator init = new Generator(o.seed() + 1);
        Sequential net = model(pde, init);
        Adam opt = new Adam(net.parameters(), lr);
        long total = (long) epochs * STEPS_PER_EPOCH;
        LrScheduler schedule = LrScheduler.cosine(opt, (int) Math.max(1, Math.min(Integer.MAX_VALUE, total)), lr / 50);
        out.println("jgrad train pinn: " + pde.describe() + "; tanh MLP " + pde.dim() + "-" + width + "-" + width + "-" + width
                + "-1, " + batch + " collocation points drawn each step, Adam lr " + lr + " (cosine to " + lr / 50 + "), "
                + epochs + " epochs of " + STEPS_PER_EPOCH + " steps");
        Generator points = new Generator(o.seed());
        Tensor grid = pde.grid();
        Tensor exact = pde.exact(grid);
        Tensor heldOut = pde.interior(new Generator(o.seed() + 2), batch);
        int boundaryPoints = pde.boundaryPoints(batch);
        double[] error = {relativeError(net, grid, exact)};
        Fit.Result r = o.applyTo(Fit.of(net, opt, Batches.drawn(points, g -> List.of(pde.interior(g, batch), pde.boundary(g, boundaryPoints)))),
                        "pinn")
                .series("pinn")
                .loss(b -> loss(pde, net, b.get(0), b.get(1)))
                .epochs(epochs)
                .evaluateEvery(STEPS_PER_EPOCH)
                .schedule(schedule)
                .evaluate(() -> {
                    double val = heldOutResidual(pde, net, heldOut);
                    error[0] = relativeError(net, grid, exact);
                    return Evaluation.of(val).note(String.format(Locale.ROOT, "relative L2 error %.2e", error[0]));
                })
                .metadata(Map.of("problem", problem.name().toLowerCase(Locale.ROOT)))
                .title("pinn: mean squared PDE residual + boundary loss")
                .atEnd(end -> {
                    out.printf(Locale.ROOT, "relative L2 error against the exact solution: %.3e%n", error[0]);
                    String subtitle = String.format(Locale.ROOT, "%s; relative L2 error %.2e  (seed %d)", pde.name(), error[0], o.seed());
                    end.subtitle(subtitle).summary("pinn", "rel_l2_error", error[0]);
                    try (NoGrad g = NoGrad.enter()) {
                        end.file("solution.png", SolutionChart.png(grid, net.forward(Variable.of(grid)).data(), exact,
                                pde.name() + ": prediction and exact solution", subtitle));
                    }
                })
                .run(out);
        return new Outcome(error[0], r.trainLoss(), r.dir());
    }

    static Pde pde(Problem problem) {
        return problem == Problem.POISSON1D ? new Poisson1d() : new Poisson2d();
    }

    /** The tanh MLP dim-width-width-width-1 that approximates u. */
    static Sequential model(Pde pde, Generator init) {
        int width = pde.width();
        return new Sequential(new Linear(pde.dim(), width, true, init), new Tanh(), new Linear(width, width, true, init),
                new Tanh(), new Linear(width, width, true, init), new Tanh(), new Linear(width, 1, true, init));
    }

    /** The mean squared residual at the interior points plus the weighted mean square of u on the boundary. */
    static Variable loss(Pde pde, Sequential net, Tensor interior, Tensor boundary) {
        Variable residual = pde.residual(net, Variable.of(interior, true));
        Variable edge = net.forward(Variable.of(boundary));
        return residual.square().mean().add(edge.square().mean().mul(BOUNDARY_WEIGHT));
    }

    /** The mean squared residual at fixed held-out points (derivatives need recording, the result does not). */
    private static double heldOutResidual(Pde pde, Sequential net, Tensor points) {
        try (EnableGrad g = EnableGrad.enter(); Memory.Scope scope = Memory.scope()) {
            return pde.residual(net, Variable.of(points, true)).square().mean().item();
        }
    }

    /** ||u - u*|| / ||u*|| over the evaluation grid. */
    static double relativeError(Sequential net, Tensor grid, Tensor exact) {
        try (NoGrad g = NoGrad.enter(); Memory.Scope scope = Memory.scope()) {
            Tensor u = net.forward(Variable.of(grid)).data();
            return Math.sqrt(u.sub(exact).square().sum().item() / exact.square().sum().item());
        }
    }

    /** d(sum(u))/dx with createGraph: each point's derivative, since every u depends on its own point only. */
    static Variable gradient(Variable u, Variable x) {
        return Autograd.grad(u.sum(), x, true);
    }

    /** A PDE with a known solution, its domain and how to sample it. */
    interface Pde {
        String name();

        String describe();

        int dim();

        int width();

        int epochs();

        int batch();

        default int boundaryPoints(int batch) {
            return Math.max(2, batch / 4);
        }

        /** Collocation points inside the domain, {@code (n, dim)}. */
        Tensor interior(Generator g, int n);

        /** Points on the boundary, {@code (n, dim)}. */
        Tensor boundary(Generator g, int n);

        /** The PDE's residual at the interior points {@code x} (which require grad), {@code (n, 1)}. */
        Variable residual(Sequential net, Variable x);

        /** The evaluation grid, {@code (m, dim)}. */
        Tensor grid();

        /** The exact solution on the points, {@code (m, 1)}. */
        Tensor exact(Tensor x);
    }

    /** {@code -u'' = pi^2 sin(pi x)} on [0, 1], {@code u(0) = u(1) = 0}: {@code u = sin(pi x)}. */
    static final class Poisson1d implements Pde {
        @Override
        public String name() {
            return "1-D Poisson";
        }

        @Override
        public String describe() {
            return "-u'' = pi^2 sin(pi x) on [0, 1], u(0) = u(1) = 0 (exact: sin(pi x))";
        }

        @Override
        public int dim() {
            return 1;
        }

        @Override
        public int width() {
            return 32;
        }

        @Override
        public int epochs() {
            return 60;
        }

        @Override
        public int batch() {
            return 128;
        }

        @Override
        public Tensor interior(Generator g, int n) {
            return Tensor.rand(g, n, 1);
        }

        @Override
        public Tensor boundary(Generator g, int n) {
            float[] b = new float[n];
            for (int i = 0; i < n; i++) {
                b[i] = i % 2;
            }
            return Tensor.of(b, n, 1);
        }

        @Override
        public Variable residual(Sequential net, Variable x) {
            Variable u = net.forward(x);
            Variable ux = gradient(u, x);
            Variable uxx = gradient(ux, x);
            Variable f = x.mul(Math.PI).sin().mul(Math.PI * Math.PI);
            return uxx.neg().sub(f);
        }

        @Override
        public Tensor grid() {
            int m = 1001;
            float[] x = new float[m];
            for (int i = 0; i < m; i++) {
                x[i] = (float) i / (m - 1);
            }
            return Tensor.of(x, m, 1);
        }

        @Override
        public Tensor exact(Tensor x) {
            return x.mul(Math.PI).sin();
        }
    }

    /**
     * {@code -(u_xx + u_yy) = 2 pi^2 sin(pi x) sin(pi y)} on the unit square, u = 0 on its edges:
     * {@code u = sin(pi x) sin(pi y)}.
     */
    static final class Poisson2d implements Pde {
        private static final int GRID = 101;

        @Override
        public String name() {
            return "2-D Poisson";
        }

        @Override
        public String describe() {
            return "-(u_xx + u_yy) = 2 pi^2 sin(pi x) sin(pi y) on the unit square, u = 0 on its edges (exact: sin(pi x) sin(pi y))";
        }

        @Override
        public int dim() {
            return 2;
        }

        @Override
        public int width() {
            return 48;
        }

        @Override
        public int epochs() {
            return 60;
        }

        @Override
        public int batch() {
            return 512;
        }

        @Override
        public Tensor interior(Generator g, int n) {
            return Tensor.rand(g, n, 2);
        }

        @Override
        public Tensor boundary(Generator g, int n) {
            float[] t = Tensor.rand(g, n).toFloatArray();
            float[] p = new float[2 * n];
            for (int i = 0; i < n; i++) {
                int edge = i % 4;
                p[2 * i] = edge < 2 ? t[i] : edge - 2;
                p[2 * i + 1] = edge < 2 ? edge : t[i];
            }
            return Tensor.of(p, n, 2);
        }

        @Override
        public Variable residual(Sequential net, Variable x) {
            Variable u = net.forward(x);
            Variable du = gradient(u, x);
            Variable uxx = gradient(du.select(1, 0), x).select(1, 0);
            Variable uyy = gradient(du.select(1, 1), x).select(1, 1);
            Variable f = x.select(1, 0).mul(Math.PI).sin().mul(x.select(1, 1).mul(Math.PI).sin()).mul(2 * Math.PI * Math.PI);
            return uxx.add(uyy).neg().sub(f).unsqueeze(1);
        }

        @Override
        public Tensor grid() {
            float[] p = new float[2 * GRID * GRID];
            for (int i = 0; i < GRID; i++) {
                for (int j = 0; j < GRID; j++) {
                    p[2 * (i * GRID + j)] = (float) j / (GRID - 1);
                    p[2 * (i * GRID + j) + 1] = (float) i / (GRID - 1);
                }
            }
            return Tensor.of(p, GRID * GRID, 2);
        }

        @Override
        public Tensor exact(Tensor x) {
            return x.select(1, 0).mul(Math.PI).sin().mul(x.select(1, 1).mul(Math.PI).sin()).unsqueeze(1);
        }
    }
}
