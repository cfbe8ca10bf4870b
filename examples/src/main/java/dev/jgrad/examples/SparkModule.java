package dev.jgrad.examples;

import java.lang.reflect.InvocationTargetException;

/**
 * The jgrad-spark module's entry points, found by name: the command line does not depend on Spark, and {@code ./jgrad}
 * puts the module and Spark's jars on the class path when a command asks for Spark. A module that is not there, or does
 * not match, is one line; what its code throws comes through as it is.
 */
public final class SparkModule {
    private SparkModule() {
    }

    /** A new {@code dev.jgrad.spark.<simpleName>} from its constructor taking {@code types}. */
    public static Object construct(String simpleName, Class<?>[] types, Object... args) {
        try {
            return type(simpleName).getConstructor(types).newInstance(args);
        } catch (InvocationTargetException e) {
            throw unwrapped(e);
        } catch (ReflectiveOperationException | LinkageError broken) {
            throw new UserError("cannot load the Spark module (" + simpleName + "): " + broken);
        }
    }

    /** Calls {@code method} of {@code target} (or, for a class name, its static method). */
    public static Object call(Object target, String method, Class<?>[] types, Object... args) {
        try {
            Class<?> c = target instanceof String name ? type(name) : target.getClass();
            return c.getMethod(method, types).invoke(target instanceof String ? null : target, args);
        } catch (InvocationTargetException e) {
            throw unwrapped(e);
        } catch (ReflectiveOperationException | LinkageError broken) {
            throw new UserError("cannot load the Spark module (" + method + "): " + broken);
        }
    }

    private static Class<?> type(String simpleName) {
        try {
            return Class.forName("dev.jgrad.spark." + simpleName);
        } catch (ClassNotFoundException notBuilt) {
            throw new UserError("the Spark module is not on the class path: run the command with ./jgrad, which builds the jgrad-spark"
                    + " module (mvn -Pspark package) and adds Spark's jars when a command asks for Spark");
        }
    }

    private static RuntimeException unwrapped(InvocationTargetException e) {
        Throwable cause = e.getCause();
        return cause instanceof RuntimeException r ? r : new UserError(String.valueOf(cause), cause);
    }
}
