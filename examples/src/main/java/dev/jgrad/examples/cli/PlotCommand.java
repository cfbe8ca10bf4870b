package dev.jgrad.examples.cli;

import dev.jgrad.examples.UserError;
import dev.jgrad.train.LossChart;
import dev.jgrad.train.Metrics;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.Callable;

/** {@code jgrad plot RUN_FOLDER|METRICS.csv [--out FILE.png]}: redraws the loss chart of any run. */
@Command(name = "plot", mixinStandardHelpOptions = true, description = "Redraw the loss chart of a run from its metrics.csv.")
public final class PlotCommand implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "RUN_FOLDER|METRICS.csv",
            description = "a run folder, or a metrics file with the columns step,epoch,series,split,loss")
    Path metrics;

    @Option(names = "--out", paramLabel = "FILE.png", description = "where to write the chart (default: loss.png beside the metrics)")
    Path out;

    @Option(names = "--title", description = "the chart's title (default: the metrics file's folder)")
    String title;

    @Override
    public Integer call() {
        if (java.nio.file.Files.isDirectory(metrics)) {
            Path csv = metrics.resolve("metrics.csv");
            if (!java.nio.file.Files.exists(csv)) {
                throw new UserError(metrics + " is a folder without a metrics.csv: give a run folder, or the metrics file itself");
            }
            metrics = csv;
        }
        Metrics m;
        try {
            m = Metrics.read(metrics);
        } catch (IllegalArgumentException e) {
            throw new UserError(e.getMessage());
        } catch (IOException e) {
            throw new UserError("cannot read " + metrics + ": " + e.getMessage());
        }
        if (m.rows().isEmpty()) {
            throw new UserError(metrics + " has a header but no rows to plot");
        }
        Path png = out != null ? out : metrics.toAbsolutePath().resolveSibling("loss.png");
        Path parent = metrics.toAbsolutePath().getParent();
        String t = title != null ? title : "loss curves: " + (parent == null ? metrics : parent.getFileName());
        try {
            LossChart.write(m, t, m.rows().size() + " logged losses, " + m.curves().size() + " curves", png);
        } catch (IOException e) {
            throw new UserError(e.getMessage());
        }
        System.out.println("Wrote " + png);
        return 0;
    }
}
