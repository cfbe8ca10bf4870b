package dev.jgrad.spark;

import dev.jgrad.examples.UserError;
import dev.jgrad.examples.sweep.Ranking;
import dev.jgrad.examples.sweep.Sweep;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A sweep whose folder is on a Hadoop file system ({@code --out hdfs://...}, {@code s3a://...}, {@code file://...}): the driver
 * works on a local copy (the sweep's definition and the runs, for resuming and ranking), the Spark tasks make the runs in
 * their executors' folders and keep them at the path, and the ranking goes back there beside them.
 */
public final class RemoteSweep {
    private RemoteSweep() {
    }

    /** Runs (or resumes) {@code sweep} into {@code uri} on {@code master}. */
    public static Ranking run(Sweep sweep, String uri, String master) {
        Path staging;
        try {
            staging = Files.createTempDirectory("jgrad-sweep-");
        } catch (IOException e) {
            throw new UserError("cannot make a local folder for the sweep: " + e.getMessage(), e);
        }
        try {
            Path local = staging.resolve("sweep");
            try {
                HadoopFolder.download(uri, local);
            } catch (IOException | RuntimeException e) {
                throw new UserError("--out " + uri + ": cannot read it through Hadoop's file system: " + e.getMessage(), e);
            }
            Ranking r = sweep.run(local, new SparkEngine(master, uri, local.toString()));
            try {
                for (String f : new String[] {Sweep.FILE, "sweep.csv", "sweep.png", "best.json"}) {
                    if (Files.isRegularFile(local.resolve(f))) {
                        HadoopFolder.upload(local.resolve(f), HadoopFolder.child(uri, f));
                    }
                }
            } catch (IOException | RuntimeException e) {
                throw new UserError("--out " + uri + ": cannot write the ranking there: " + e.getMessage(), e);
            }
            return r;
        } finally {
            try {
                HadoopFolder.deleteLocal(staging);
            } catch (IOException e) {
                System.err.println("jgrad: could not remove " + staging + ": " + e.getMessage());
            }
        }
    }
}
