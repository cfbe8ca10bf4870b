package dev.jgrad.nn;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/** {@code nn.ModuleDict}: submodules by name, in the order they were put, registered under those names. */
public class ModuleDict extends Module {
    private final Map<String, Module> modules = new LinkedHashMap<>();

    /** An empty dict. */
    public ModuleDict() {
    }

    /** A dict of {@code modules}, in their order. */
    public ModuleDict(Map<String, ? extends Module> modules) {
        modules.forEach(this::put);
    }

    /** Adds {@code m} under {@code name} (non-empty, without '.', not yet used). */
    public <M extends Module> M put(String name, M m) {
        if (m == null) {
            throw new IllegalArgumentException("ModuleDict.put: the module for '" + name + "' is null");
        }
        registerModule(name, m);
        modules.put(name, m);
        return m;
    }

    /** The module under {@code name}. */
    public Module get(String name) {
        Module m = modules.get(name);
        if (m == null) {
            throw new IllegalArgumentException("ModuleDict has no module '" + name + "'; it has " + modules.keySet());
        }
        return m;
    }

    /** Whether the dict holds a module under {@code name}. */
    public boolean containsKey(String name) {
        return modules.containsKey(name);
    }

    /** The number of modules. */
    public int size() {
        return modules.size();
    }

    /** The modules by name, read-only. */
    public Map<String, Module> asMap() {
        return Collections.unmodifiableMap(modules);
    }
}
