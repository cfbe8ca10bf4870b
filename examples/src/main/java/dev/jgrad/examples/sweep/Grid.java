package dev.jgrad.examples.sweep;

import dev.jgrad.examples.UserError;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;

/**
 * The options a sweep varies: each a trainer option without its dashes ({@code lr}) and its values, written
 * {@code lr=1e-3,3e-3}. Expanded as a grid (every combination, the first option slowest) or drawn at random: a list is
 * drawn from uniformly, a range {@code lo:hi} log-uniformly where both ends are positive decimals, uniformly over
 * the whole numbers where both are whole.
 */
public final class Grid {
    private final Map<String, List<String>> axes = new LinkedHashMap<>();

    /** An empty grid. */
    public Grid() {
    }

    /** Parses {@code key=v1,v2,...} specs, as {@code --grid} gives them. */
    public static Grid parse(List<String> specs) {
        Grid g = new Grid();
        for (String spec : specs) {
            int eq = spec.indexOf('=');
            if (eq <= 0) {
                throw new UserError("--grid " + spec + ": write OPTION=V1,V2,... (an option of the trainer without its dashes, e.g. lr=1e-3,3e-3)");
            }
            String key = spec.substring(0, eq).replaceFirst("^-+", "");
            List<String> values = new ArrayList<>();
            for (String v : spec.substring(eq + 1).split(",", -1)) {
                if (v.isBlank()) {
                    throw new UserError("--grid " + spec + ": an empty value; write OPTION=V1,V2,...");
                }
                values.add(v.strip());
            }
            g.add(key, values);
        }
        return g;
    }

    /** Adds an option and its values. */
    public Grid add(String key, List<String> values) {
        if (axes.containsKey(key)) {
            throw new UserError("--grid " + key + " is given twice: give all its values in one, " + key + "=V1,V2,...");
        }
        if (values.isEmpty()) {
            throw new UserError("--grid " + key + " has no values");
        }
        axes.put(key, List.copyOf(values));
        return this;
    }

    /** The options and their values, in the order given. */
    public Map<String, List<String>> axes() {
        return java.util.Collections.unmodifiableMap(axes);
    }

    /** Every combination, the first option varying slowest. */
    public List<Map<String, String>> combinations() {
        List<Map<String, String>> out = new ArrayList<>();
        out.add(new LinkedHashMap<>());
        for (Map.Entry<String, List<String>> axis : axes.entrySet()) {
            List<Map<String, String>> next = new ArrayList<>();
            for (Map<String, String> partial : out) {
                for (String v : axis.getValue()) {
                    Map<String, String> m = new LinkedHashMap<>(partial);
                    m.put(axis.getKey(), v);
                    next.add(m);
                }
            }
            out = next;
        }
        return out;
    }

    /** {@code n} draws, the same for the same seed. */
    public List<Map<String, String>> draws(int n, long seed) {
        Random r = new Random(seed);
        List<Map<String, String>> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            Map<String, String> m = new LinkedHashMap<>();
            for (Map.Entry<String, List<String>> axis : axes.entrySet()) {
                m.put(axis.getKey(), draw(axis.getKey(), axis.getValue(), r));
            }
            out.add(m);
        }
        return out;
    }

    private static String draw(String key, List<String> values, Random r) {
        if (values.size() == 1 && values.get(0).contains(":")) {
            String[] ends = values.get(0).split(":", -1);
            if (ends.length != 2) {
                throw new UserError("--grid " + key + "=" + values.get(0) + ": a range is LO:HI");
            }
            try {
                if (ends[0].matches("-?\\d+") && ends[1].matches("-?\\d+")) {
                    long lo = Long.parseLong(ends[0]);
                    long hi = Long.parseLong(ends[1]);
                    if (hi < lo) {
                        throw new UserError("--grid " + key + "=" + values.get(0) + ": the range's high end is below its low end");
                    }
                    return Long.toString(lo + (long) Math.floor(r.nextDouble() * (hi - lo + 1)));
                }
                double lo = Double.parseDouble(ends[0]);
                double hi = Double.parseDouble(ends[1]);
                if (!(lo > 0) || !(hi >= lo)) {
                    throw new UserError("--grid " + key + "=" + values.get(0) + ": a range of decimals is drawn log-uniformly and needs"
                            + " 0 < LO <= HI");
                }
                double v = Math.exp(Math.log(lo) + r.nextDouble() * (Math.log(hi) - Math.log(lo)));
                return String.format(Locale.ROOT, "%.3g", v);
            } catch (NumberFormatException e) {
                throw new UserError("--grid " + key + "=" + values.get(0) + ": a range's ends must be numbers");
            }
        }
        return values.get(r.nextInt(values.size()));
    }
}
