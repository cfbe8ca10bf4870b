package dev.jgrad.examples.train;

import dev.jgrad.autograd.Autograd;
import dev.jgrad.autograd.NoGrad;
import dev.jgrad.autograd.Variable;
import dev.jgrad.examples.UserError;
import dev.jgrad.examples.report.Metrics;
import dev.jgrad.examples.report.SolutionChart;
import dev.jgrad.nn.Init;
import dev.jgrad.nn.Linear;
import dev.jgrad.nn.Sequential;
import dev.jgrad.nn.Tanh;
import dev.jgrad.nn.io.AtomicFileSet;
import dev.jgrad.nn.optim.Adam;
import dev.jgrad.nn.optim.LrScheduler;
import dev.jgrad.tensor.Generator;
import dev.jgrad.tensor.Memory;
import dev.jgrad.tensor.Tensor;

import java.io.PrintStream;
import java.nio.file.Path;
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
        long started = System.nanoTime();
        Pde pde = problem == Problem.POISSON1D ? new Poisson1d() : new Poisson2d();
        int epochs = o.epochs(pde.epochs());
        int batch = o.batchSize(pde.batch());
        double lr = o.lr(2e-3);
        Path dir = RunDirectory.prepare(o, "pinn");
        Init.manualSeed(o.seed());
        Generator init = new Generator(o.seed() + 1);
        int width = pde.width();
        Sequential net = new Sequential(new Linear(pde.dim(), width, true, init), new Tanh(), new Linear(width, width, true, init),
                new Tanh(), new Linear(width, width, true, init), new Tanh(), new Linear(width, 1, true, init));
        Adam opt = new Adam(net.parameters(), lr);
        String resumed = RunFiles.resume(o.resume(), net, opt);
        // The optimizer's saved rate is where its schedule had taken it; the schedule starts from the configured one.
        opt.setLr(lr);
        int total = epochs * STEPS_PER_EPOCH;
        LrScheduler schedule = LrScheduler.cosine(opt, Math.max(1, total), lr / 50);
        out.println("jgrad train pinn: " + pde.describe() + "; tanh MLP " + pde.dim() + "-" + width + "-" + width + "-" + width
                + "-1, " + batch + " collocation points drawn each step, Adam lr " + lr + " (cosine to " + lr / 50 + "), "
                + epochs + " epochs of " + STEPS_PER_EPOCH + " steps" + (resumed == null ? "" : "; " + resumed));
        Generator points = new Generator(o.seed());
        Tensor grid = pde.grid();
        Tensor exact = pde.exact(grid);
        Tensor heldOut = pde.interior(new Generator(o.seed() + 2), batch);
        Metrics metrics = new Metrics();
        Progress progress = new Progress("pinn", epochs, STEPS_PER_EPOCH);
        double error = relativeError(net, grid, exact);
        long step = 0;
        RunPosition.clear();
        // Where the run stands, for its checkpoints: a run resumed in its own folder goes on from there exactly.
        int startEpoch = 1;
        int startStep = 0;
        double startSum = 0;
        Map<String, String> resumeMeta = RunFiles.continuingMetadata(o.resume(), dir);
        if (resumeMeta != null && resumeMeta.containsKey(PINN_STEP)) {
            try {
                step = Long.parseLong(resumeMeta.get(PINN_STEP));
                startEpoch = Integer.parseInt(resumeMeta.get(PINN_EPOCH));
                startStep = Integer.parseInt(resumeMeta.get(PINN_STEP_IN_EPOCH));
                startSum = Double.parseDouble(resumeMeta.get(PINN_EPOCH_SUM));
                points.restore(resumeMeta.get(PINN_RNG));
            } catch (RuntimeException ex) {
                throw new UserError("--resume: " + o.resume() + " does not say where its run stood (" + ex.getMessage() + ")");
            }
            for (long k = 0; k < step; k++) {
                schedule.step();
            }
            for (Metrics.Row r : RunFiles.readMetrics(dir)) {
                if (r.epoch() < startEpoch) {
                    metrics.add(r.step(), r.epoch(), r.series(), r.split(), r.loss());
                }
            }
        }
        // The next step's epoch and index in it, and the epoch's loss so far: what a checkpoint records.
        int atEpoch = startEpoch;
        int atStep = startStep;
        double atSum = startSum;
        long lastSave = System.nanoTime();
        for (int e = startEpoch; e <= epochs && !Interrupt.requested(); e++) {
            progress.startEpoch(e);
            double sum = e == startEpoch ? startSum : 0;
            for (int s = e == startEpoch ? startStep : 0; s < STEPS_PER_EPOCH; s++) {
                if (Interrupt.requested()) {
                    break;
                }
                double v;
                try (Memory.Scope scope = Memory.scope()) {
                    opt.zeroGrad();
                    Variable loss = loss(pde, net, pde.interior(points, batch), pde.boundary(points, pde.boundaryPoints(batch)));
                    v = loss.item();
                    if (!Double.isFinite(v) && !o.allowNan()) {
                        throw new UserError(String.format(Locale.ROOT, "the pinn loss is %s at epoch %d, step %d: the run stopped and "
                                + "saved nothing (lower --lr, or pass --allow-nan to go on)", v, e, s + 1));
                    }
                    loss.backward();
                    opt.step();
                    schedule.step();
                }
                sum += v;
                step++;
                atEpoch = e;
                atStep = s + 1;
                atSum = sum;
                progress.step(v);
                Interrupt.at("epoch " + e + ", step " + step);
                Interrupt.stepped(step);
            }
            if (Interrupt.requested()) {
                break;
            }
            atEpoch = e + 1;
            atStep = 0;
            atSum = 0;
            double val = heldOutResidual(pde, net, heldOut);
            error = relativeError(net, grid, exact);
            metrics.add(step, e, "pinn", "train", sum / STEPS_PER_EPOCH);
            metrics.add(step, e, "pinn", "val", val);
            progress.endEpoch(String.format(Locale.ROOT, "held-out residual %.3g  relative L2 error %.2e", val, error));
            if (e < epochs && System.nanoTime() - lastSave >= RunFiles.EPOCH_SAVE_NANOS) {
                lastSave = System.nanoTime();
                AtomicFileSet files = new AtomicFileSet(dir).addString("metrics.csv", metrics.toCsv());
                RunFiles.addCheckpoint(files, dir, net, opt, position(problem, step, atEpoch, atStep, atSum, points));
                RunFiles.commit(files);
            }
        }
        out.printf(Locale.ROOT, "relative L2 error against the exact solution: %.3e%n", error);
        String subtitle = String.format(Locale.ROOT, "%s; relative L2 error %.2e  (seed %d)", pde.name(), error, o.seed());
        AtomicFileSet files = RunFiles.curves(dir, metrics, "pinn: mean squared PDE residual + boundary loss", subtitle);
        try (NoGrad g = NoGrad.enter()) {
            files.add("solution.png", SolutionChart.png(grid, net.forward(Variable.of(grid)).data(), exact,
                    pde.name() + ": prediction and exact solution", subtitle));
        }
        Map<String, Object> series = RunFiles.series(metrics, "pinn", "rel_l2_error", error);
        RunFiles.finish(files, dir, "pinn", o.seed(), started, epochs, Map.of("pinn", series), net, opt,
                position(problem, step, atEpoch, atStep, atSum, points), out);
        return new Outcome(error, metrics.last("pinn", "train"), dir);
    }

    private static final String PINN_STEP = "jgrad.step";
    private static final String PINN_EPOCH = "jgrad.pinn.epoch";
    private static final String PINN_STEP_IN_EPOCH = "jgrad.pinn.step_in_epoch";
    private static final String PINN_EPOCH_SUM = "jgrad.pinn.epoch_loss_sum";
    private static final String PINN_RNG = "jgrad.rng.points";

    /** A checkpoint's metadata: the problem, and where the run stands (the next step's epoch and index, the points' generator). */
    private static Map<String, String> position(Problem problem, long step, int epoch, int stepInEpoch, double epochSum, Generator points) {
        Map<String, String> m = new java.util.LinkedHashMap<>();
        m.put("problem", problem.name().toLowerCase(Locale.ROOT));
        m.put(PINN_STEP, Long.toString(step));
        m.put(PINN_EPOCH, Integer.toString(epoch));
        m.put(PINN_STEP_IN_EPOCH, Integer.toString(stepInEpoch));
        m.put(PINN_EPOCH_SUM, Double.toString(epochSum));
        m.put(PINN_RNG, points.state());
        return m;
    }

    /** The mean squared residual at the interior points plus the weighted mean square of u on the boundary. */
    static Variable loss(Pde pde, Sequential net, Tensor interior, Tensor boundary) {
        Variable residual = pde.residual(net, Variable.of(interior, true));
        Variable edge = net.forward(Variable.of(boundary));
        return residual.square().mean().add(edge.square().mean().mul(BOUNDARY_WEIGHT));
    }

    /** The mean squared residual at fixed held-out points (derivatives need recording, the result does not). */
    private static double heldOutResidual(Pde pde, Sequential net, Tensor points) {
        try (Memory.Scope scope = Memory.scope()) {
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
