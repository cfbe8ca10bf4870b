package dev.jgrad.examples.train;

import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.lang.reflect.Field;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The options of a trainer's command, read from and written into the fields Picocli fills: what config.json keeps of a
 * run, and how a value it kept becomes a field's value again. Options that say where a run goes or how this machine runs
 * it ({@code --out}, {@code --resume}, {@code --overwrite}, {@code --threads}) are not the run's, and are left out.
 */
final class OptionValues {
    /** Options that are not part of what a run is. */
    static final Set<String> NOT_KEPT = Set.of("--out", "--resume", "--overwrite", "--threads", "--help", "--version", "--dashboard",
            "--dashboard-port", "--data-parallel", "--worker", "--master");

    private OptionValues() {
    }

    /** An option field of a command: where it lives, and its longest name ("--batch-size"). */
    record OptionField(Object holder, Field field, String name) {
        Object get() {
            try {
                return field.get(holder);
            } catch (IllegalAccessException e) {
                throw new IllegalStateException(e);
            }
        }

        void set(Object value) {
            try {
                field.set(holder, value);
            } catch (IllegalAccessException e) {
                throw new IllegalStateException(e);
            }
        }
    }

    /** The option fields of {@code command} and of its mixins, by name, without those in {@link #NOT_KEPT} or {@code skip}. */
    static Map<String, OptionField> fields(Object command, Set<String> skip) {
        Map<String, OptionField> out = new LinkedHashMap<>();
        collect(command, skip, out);
        return out;
    }

    private static void collect(Object holder, Set<String> skip, Map<String, OptionField> out) {
        for (Class<?> c = holder.getClass(); c != null && c != Object.class; c = c.getSuperclass()) {
            for (Field f : c.getDeclaredFields()) {
                f.setAccessible(true);
                if (f.isAnnotationPresent(Mixin.class)) {
                    try {
                        Object mixin = f.get(holder);
                        if (mixin != null) {
                            collect(mixin, skip, out);
                        }
                    } catch (IllegalAccessException e) {
                        throw new IllegalStateException(e);
                    }
                    continue;
                }
                Option o = f.getAnnotation(Option.class);
                if (o == null || o.help() || o.usageHelp() || o.versionHelp()) {
                    continue;
                }
                String name = longest(o.names());
                if (!NOT_KEPT.contains(name) && !skip.contains(name)) {
                    out.put(name, new OptionField(holder, f, name));
                }
            }
        }
    }

    private static String longest(String[] names) {
        String best = names[0];
        for (String n : names) {
            if (n.length() > best.length()) {
                best = n;
            }
        }
        return best;
    }

    /** The values of the fields that hold one, by option name. */
    static Map<String, Object> values(Map<String, OptionField> fields) {
        Map<String, Object> m = new LinkedHashMap<>();
        fields.forEach((name, f) -> {
            Object v = f.get();
            if (v != null) {
                m.put(name, v);
            }
        });
        return m;
    }

    /** A kept value as the field's type; an IllegalArgumentException where it is not one. */
    static Object convert(String text, Class<?> type) {
        try {
            if (type == int.class || type == Integer.class) {
                return Integer.parseInt(text);
            }
            if (type == long.class || type == Long.class) {
                return Long.parseLong(text);
            }
            if (type == double.class || type == Double.class) {
                return Double.parseDouble(text);
            }
            if (type == boolean.class || type == Boolean.class) {
                if (!text.equals("true") && !text.equals("false")) {
                    throw new IllegalArgumentException("'" + text + "' is not true or false");
                }
                return Boolean.parseBoolean(text);
            }
            if (type == Path.class) {
                return Path.of(text);
            }
            if (type == String.class) {
                return text;
            }
            if (type.isEnum()) {
                for (Object constant : type.getEnumConstants()) {
                    if (((Enum<?>) constant).name().equalsIgnoreCase(text)) {
                        return constant;
                    }
                }
                throw new IllegalArgumentException("'" + text + "' is none of " + java.util.Arrays.toString(type.getEnumConstants()));
            }
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("'" + text + "' is not a " + type.getSimpleName().toLowerCase(Locale.ROOT));
        }
        throw new IllegalArgumentException("an option of type " + type.getName() + " cannot be kept");
    }

    /** Whether two values of an option are the same (paths compared as absolute paths). */
    static boolean same(Object a, Object b) {
        if (a instanceof Path && b instanceof Path) {
            return ((Path) a).toAbsolutePath().normalize().equals(((Path) b).toAbsolutePath().normalize());
        }
        return java.util.Objects.equals(a, b);
    }

    /** A value as the user would type it. */
    static String show(Object v) {
        return v instanceof Enum ? ((Enum<?>) v).name().toLowerCase(Locale.ROOT) : String.valueOf(v);
    }
}
