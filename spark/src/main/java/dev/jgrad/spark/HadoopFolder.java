package dev.jgrad.spark;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A folder on one of Hadoop's file systems (hdfs://, s3a://, file://, whatever the cluster's Hadoop brings), copied to and
 * from a local folder: the runs are made in local folders and kept there.
 */
final class HadoopFolder {
    private HadoopFolder() {
    }

    /** Whether {@code out} names a Hadoop path ({@code scheme://...}) rather than a local folder. */
    static boolean isUri(String out) {
        return out.matches("[a-zA-Z][a-zA-Z0-9+.-]*://.*");
    }

    private static FileSystem fs(String uri) throws IOException {
        return FileSystem.get(URI.create(uri), new Configuration());
    }

    private static org.apache.hadoop.fs.Path path(String uri) {
        return new org.apache.hadoop.fs.Path(URI.create(uri));
    }

    /** {@code base/child} as a URI string. */
    static String child(String base, String child) {
        return base.endsWith("/") ? base + child : base + "/" + child;
    }

    static boolean exists(String uri) throws IOException {
        return fs(uri).exists(path(uri));
    }

    /** Copies the folder {@code uri} to {@code local} (replacing what is there), if it exists. */
    static void download(String uri, Path local) throws IOException {
        if (!exists(uri)) {
            return;
        }
        deleteLocal(local);
        Files.createDirectories(local.getParent());
        fs(uri).copyToLocalFile(false, path(uri), new org.apache.hadoop.fs.Path(local.toUri()), true);
    }

    /** Copies the file {@code uri} to {@code local}. */
    static void downloadFile(String uri, Path local) throws IOException {
        Files.createDirectories(local.getParent());
        fs(uri).copyToLocalFile(false, path(uri), new org.apache.hadoop.fs.Path(local.toUri()), true);
    }

    /** Copies the file or folder {@code local} to {@code uri}, replacing what is there. */
    static void upload(Path local, String uri) throws IOException {
        FileSystem fs = fs(uri);
        if (Files.isDirectory(local)) {
            fs.delete(path(uri), true);
        }
        fs.copyFromLocalFile(false, true, new org.apache.hadoop.fs.Path(local.toUri()), path(uri));
    }

    static void deleteLocal(Path p) throws IOException {
        if (!Files.exists(p)) {
            return;
        }
        try (var all = Files.walk(p)) {
            for (Path q : all.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.delete(q);
            }
        }
    }
}
