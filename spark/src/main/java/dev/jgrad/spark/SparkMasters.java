package dev.jgrad.spark;

import dev.jgrad.examples.UserError;

/** A --master: the checks it gets before anything starts, and the Spark context on it. */
final class SparkMasters {
    private SparkMasters() {
    }

    /** A Spark context on {@code master} without its web UI and console progress bar; a master that fails is one line. */
    static org.apache.spark.api.java.JavaSparkContext start(String master, String appName) {
        org.apache.spark.SparkConf conf = new org.apache.spark.SparkConf().setMaster(master).setAppName(appName)
                .set("spark.ui.enabled", "false").set("spark.ui.showConsoleProgress", "false");
        try {
            return new org.apache.spark.api.java.JavaSparkContext(conf);
        } catch (RuntimeException e) {
            throw new UserError("cannot start Spark on --master " + master + ": " + String.valueOf(e.getMessage()).split("\n")[0], e);
        }
    }

    /**
     * A {@code spark://host:port} master must answer on its port (Spark's client would otherwise retry for minutes);
     * {@code local}, {@code local[N]} and the cluster managers Spark resolves itself are taken as they are.
     */
    static void check(String master) {
        if (master.startsWith("local")) {
            if (!master.matches("local(\\[(\\d+|\\*)(,\\d+)?\\])?")) {
                throw new UserError("--master " + master + ": write local, local[N] or local[*]");
            }
            return;
        }
        if (master.startsWith("spark://")) {
            for (String hostPort : master.substring("spark://".length()).split(",")) {
                int colon = hostPort.lastIndexOf(':');
                String host = colon < 0 ? hostPort : hostPort.substring(0, colon);
                int port;
                try {
                    port = colon < 0 ? 7077 : Integer.parseInt(hostPort.substring(colon + 1));
                } catch (NumberFormatException e) {
                    throw new UserError("--master " + master + ": the port of " + hostPort + " is not a number");
                }
                try (java.net.Socket s = new java.net.Socket()) {
                    s.connect(new java.net.InetSocketAddress(host, port), 5000);
                } catch (java.io.IOException e) {
                    throw new UserError("--master " + master + ": nothing answers at " + host + ":" + port + " (" + e.getMessage()
                            + "); is the Spark master running?");
                }
            }
        }
    }

}
