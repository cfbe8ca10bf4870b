package dev.jgrad.examples.conformance;

import dev.jgrad.tensor.ValuesIndices;
import dev.jgrad.autograd.Autograd;
import dev.jgrad.autograd.Variable;
import dev.jgrad.tensor.Index;
import dev.jgrad.tensor.ScatterReduce;
import dev.jgrad.tensor.Shape;
import dev.jgrad.tensor.Tensor;
import dev.jgrad.tensor.UnaryOp;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The corpus ops of the tensor and autograd layers, each mapped to jgrad's API as a Java user would call
 * it. A handler returns a {@link Variable} or, for ops with several outputs, a list of them.
 */
final class CoreOps {
    interface Handler {
        Object run(Step s);
    }

    private CoreOps() {
    }

    static Map<String, Handler> table() {
        Map<String, Handler> t = new HashMap<>();
        // binary arithmetic, with a scalar on either side
        t.put("add", s -> binary(s, "add"));
        t.put("sub", s -> binary(s, "sub"));
        t.put("mul", s -> binary(s, "mul"));
        t.put("div", s -> binary(s, "div"));
        t.put("pow", s -> binary(s, "pow"));
        t.put("maximum", s -> binary(s, "maximum"));
        t.put("minimum", s -> binary(s, "minimum"));
        for (String c : new String[] {"eq", "ne", "lt", "le", "gt", "ge", "logical_and", "logical_or"}) {
            t.put(c, s -> binary(s, c));
        }
        // every unary function by its PyTorch name, so a new UnaryOp is in the corpus runner without a line here
        for (UnaryOp fn : UnaryOp.values()) {
            t.putIfAbsent(fn.pyName(), s -> s.var(0).unary(fn));
        }
        t.put("gelu", s -> s.var(0).gelu("tanh".equals(s.text("approximate", "none"))));
        t.put("clamp", s -> s.var(0).clamp(s.real("min", Double.NaN), s.real("max", Double.NaN)));
        t.put("where", CoreOps::where);
        t.put("masked_fill", s -> s.var(0).maskedFill(s.var(1), s.num(2)));
        // reductions
        t.put("sum", s -> s.var(0).sum(s.dims("dim"), s.flag("keepdim", false)));
        t.put("mean", s -> s.var(0).mean(s.dims("dim"), s.flag("keepdim", false)));
        t.put("prod", s -> s.var(0).prod(s.dims("dim"), s.flag("keepdim", false)));
        t.put("amax", s -> s.var(0).amax(s.dims("dim"), s.flag("keepdim", false)));
        t.put("amin", s -> s.var(0).amin(s.dims("dim"), s.flag("keepdim", false)));
        t.put("logsumexp", s -> s.var(0).logsumexp(s.dims("dim"), s.flag("keepdim", false)));
        t.put("var", s -> s.var(0).var(s.dims("dim"), s.real("correction", 1), s.flag("keepdim", false)));
        t.put("max_dim", s -> {
            ValuesIndices<Variable> r = s.var(0).max(s.integer("dim"), s.flag("keepdim", false));
            return List.of(r.values(), Variable.of(r.indices()));
        });
        t.put("argmax", s -> s.has("dim")
                ? s.var(0).argmax(s.integer("dim"), s.flag("keepdim", false))
                : Variable.of(s.tensor(0).argmax()));
        t.put("softmax", s -> s.var(0).softmax(s.integer("dim")));
        t.put("log_softmax", s -> s.var(0).logSoftmax(s.integer("dim")));
        // linear algebra
        t.put("matmul", s -> s.var(0).matmul(s.var(1)));
        t.put("einsum", s -> {
            List<Variable> ops = new ArrayList<>();
            for (int i = 0; i < s.argc(); i++) {
                ops.add(s.var(i));
            }
            return Variable.einsum(s.text("equation", ""), ops.toArray(new Variable[0]));
        });
        t.put("linear", s -> Variable.linear(s.var(0), s.var(1), s.isAbsent(2) ? null : s.var(2)));
        t.put("nonzero", s -> Variable.of(s.tensor(0).nonzero()));
        // views
        t.put("reshape", s -> s.var(0).reshape(s.ints("shape")));
        t.put("view", s -> s.var(0).view(s.ints("shape")));
        t.put("expand", s -> s.var(0).expand(s.ints("shape")));
        t.put("broadcast_to", s -> s.var(0).broadcastTo(s.ints("shape")));
        t.put("transpose", s -> s.var(0).transpose(s.integer("dim0"), s.integer("dim1")));
        t.put("permute", s -> s.var(0).permute(s.ints("dims")));
        t.put("unsqueeze", s -> s.var(0).unsqueeze(s.integer("dim")));
        t.put("squeeze", s -> s.has("dim") ? s.var(0).squeeze(s.integer("dim")) : s.var(0).squeeze());
        t.put("flatten", s -> s.var(0).flatten(s.integer("start_dim", 0), s.integer("end_dim", -1)));
        t.put("unflatten", s -> s.var(0).unflatten(s.integer("dim"), s.ints("sizes")));
        t.put("movedim", s -> s.var(0).movedim(s.integer("source"), s.integer("destination")));
        t.put("flip", s -> s.var(0).flip(s.ints("dims")));
        t.put("contiguous", s -> s.var(0).contiguous());
        t.put("clone", s -> s.var(0).clone());
        t.put("slice", s -> {
            Variable x = s.var(0);
            int dim = s.integer("dim");
            int size = x.size(dim);
            return x.slice(dim, s.integer("start", 0), s.integer("end", size), s.integer("step", 1));
        });
        t.put("select", s -> s.var(0).select(s.integer("dim"), s.integer("index")));
        t.put("grad", CoreOps::grad);
        t.put("split", s -> s.var(0).split(s.integer("split_size"), s.integer("dim", 0)));
        t.put("chunk", s -> s.var(0).chunk(s.integer("chunks"), s.integer("dim", 0)));
        t.put("tensor_split", s -> s.var(0).tensorSplit(s.integer("sections"), s.integer("dim", 0)));
        t.put("cat", s -> Variable.cat(s.vars(0), s.integer("dim", 0)));
        t.put("stack", s -> Variable.stack(s.vars(0), s.integer("dim", 0)));
        // indexing
        t.put("index", CoreOps::index);
        t.put("index_select", s -> s.var(0).indexSelect(s.integer("dim"), s.tensor(1)));
        t.put("gather", s -> s.var(0).gather(s.integer("dim"), s.tensor(1)));
        t.put("take_along_dim", s -> s.var(0).takeAlongDim(s.tensor(1), s.integer("dim")));
        t.put("scatter", s -> s.isScalar(2)
                ? s.var(0).scatter(s.integer("dim"), s.tensor(1), Variable.of(Tensor.scalarLike(s.num(2), s.tensor(0)).expand(s.tensor(1).shape())))
                : s.var(0).scatter(s.integer("dim"), s.tensor(1), s.var(2)));
        t.put("scatter_add", s -> s.var(0).scatterAdd(s.integer("dim"), s.tensor(1), s.var(2)));
        t.put("scatter_reduce", s -> s.var(0).scatterReduce(s.integer("dim"), s.tensor(1), s.var(2),
                ScatterReduce.parse(s.text("reduce", "sum")), s.flag("include_self", true)));
        t.put("index_add", s -> s.var(0).indexAdd(s.integer("dim"), s.tensor(1), s.var(2)));
        // in place
        t.put("add_", s -> s.isScalar(1) ? s.var(0).addi(s.num(1)) : s.var(0).addi(s.var(1)));
        t.put("sub_", s -> s.isScalar(1) ? s.var(0).subi(s.num(1)) : s.var(0).subi(s.var(1)));
        t.put("mul_", s -> s.isScalar(1) ? s.var(0).muli(s.num(1)) : s.var(0).muli(s.var(1)));
        t.put("div_", s -> s.isScalar(1) ? s.var(0).divi(s.num(1)) : s.var(0).divi(s.var(1)));
        t.put("masked_fill_", s -> s.var(0).maskedFilli(s.tensor(1), s.num(2)));
        t.put("copy_", s -> s.var(0).copyFrom(s.var(1)));
        t.put("fill_", s -> s.var(0).fill(s.num(1)));
        t.put("zero_", s -> s.var(0).zero());
        t.put("index_add_", s -> {
            s.tensor(0).indexAddi(s.integer("dim"), s.tensor(1), s.tensor(2));
            return s.var(0);
        });
        t.put("index_put_", s -> {
            List<Variable> idx = s.vars(1);
            Index[] indices = new Index[idx.size()];
            for (int i = 0; i < indices.length; i++) {
                indices[i] = Index.of(idx.get(i).data());
            }
            s.tensor(0).indexPuti(indices, s.tensor(2), s.flag("accumulate", false));
            return s.var(0);
        });
        t.put("broadcast_shapes", s -> {
            List<?> list = (List<?>) s.attr("shapes");
            int[][] shapes = new int[list.size()][];
            for (int i = 0; i < shapes.length; i++) {
                shapes[i] = Values.ints(list.get(i));
            }
            int[] r = Shape.broadcastShapes(shapes);
            long[] l = new long[r.length];
            for (int i = 0; i < r.length; i++) {
                l[i] = r[i];
            }
            return Variable.of(Tensor.of(l, l.length));
        });
        return t;
    }

    /** A binary op where either side may be a Python number, as the user would write it in Java. */
    private static Variable binary(Step s, String op) {
        boolean leftScalar = s.isScalar(0);
        boolean rightScalar = s.isScalar(1);
        if (leftScalar && rightScalar) {
            throw new IllegalArgumentException(op + ": at least one argument must be a tensor");
        }
        if (rightScalar) {
            Variable a = s.var(0);
            double v = s.num(1);
            switch (op) {
                case "add": return a.add(v);
                case "sub": return a.sub(v);
                case "mul": return a.mul(v);
                case "div": return a.div(v);
                case "pow": return a.pow(v);
                case "eq": return a.eq(v);
                case "ne": return a.ne(v);
                case "lt": return a.lt(v);
                case "le": return a.le(v);
                case "gt": return a.gt(v);
                case "ge": return a.ge(v);
                default: return apply(op, a, constantLike(v, a));
            }
        }
        if (leftScalar) {
            Variable b = s.var(1);
            double v = s.num(0);
            switch (op) {
                case "add": return b.add(v);
                case "mul": return b.mul(v);
                case "sub": return b.rsub(v);
                case "div": return b.rdiv(v);
                case "pow": return b.rpow(v);
                default: return apply(op, constantLike(v, b), b);
            }
        }
        return apply(op, s.var(0), s.var(1));
    }

    private static Variable constantLike(double v, Variable like) {
        return Variable.of(Tensor.scalarLike(v, like.data()));
    }

    private static Variable apply(String op, Variable a, Variable b) {
        switch (op) {
            case "add": return a.add(b);
            case "sub": return a.sub(b);
            case "mul": return a.mul(b);
            case "div": return a.div(b);
            case "pow": return a.pow(b);
            case "maximum": return a.maximum(b);
            case "minimum": return a.minimum(b);
            case "eq": return a.eq(b);
            case "ne": return a.ne(b);
            case "lt": return a.lt(b);
            case "le": return a.le(b);
            case "gt": return a.gt(b);
            case "ge": return a.ge(b);
            case "logical_and": return a.logicalAnd(b);
            case "logical_or": return a.logicalOr(b);
            default: throw new UnsupportedOpException("op '" + op + "' is not implemented");
        }
    }

    private static Variable where(Step s) {
        Variable c = s.var(0);
        if (s.isScalar(1) && s.isScalar(2)) {
            return Variable.of(Tensor.where(c.data(), s.num(1), s.num(2)));
        }
        if (s.isScalar(1)) {
            return Variable.where(c, s.num(1), s.var(2));
        }
        if (s.isScalar(2)) {
            return Variable.where(c, s.var(1), s.num(2));
        }
        return Variable.where(c, s.var(1), s.var(2));
    }

    private static Variable index(Step s) {
        List<?> spec = (List<?>) s.attr("indices");
        Index[] indices = new Index[spec.size()];
        for (int i = 0; i < indices.length; i++) {
            indices[i] = indexEntry(spec.get(i), s);
        }
        return s.var(0).index(indices);
    }

    private static Index indexEntry(Object o, Step s) {
        if (o == null) {
            return Index.NONE;
        }
        if (o instanceof Number) {
            return Index.at(((Number) o).intValue());
        }
        if (o instanceof Map) {
            Map<?, ?> m = (Map<?, ?>) o;
            Integer start = m.get("start") == null ? null : ((Number) m.get("start")).intValue();
            Integer stop = m.get("stop") == null ? null : ((Number) m.get("stop")).intValue();
            int step = m.get("step") == null ? 1 : ((Number) m.get("step")).intValue();
            return Index.slice(start, stop, step);
        }
        String name = String.valueOf(o);
        if (":".equals(name)) {
            return Index.ALL;
        }
        if ("...".equals(name)) {
            return Index.ELLIPSIS;
        }
        return Index.of(s.named(name).data());
    }

    /**
     * {@code torch.autograd.grad(out, inputs, grad_outputs, create_graph, retain_graph, allow_unused)}. JSON has
     * no None, so an unused input (with allow_unused) gets zeros of its shape, as the corpus expects.
     */
    private static Object grad(Step s) {
        boolean create = s.flag("create_graph", false);
        boolean retain = s.flag("retain_graph", create);
        List<Variable> inputs = s.vars(1);
        Variable gradOutput = s.has("grad_outputs") ? s.named(s.text("grad_outputs", null)) : null;
        List<Variable> grads = Autograd.grad(List.of(s.var(0)), inputs, java.util.Collections.singletonList(gradOutput), create,
                retain, s.flag("allow_unused", false));
        List<Variable> out = new java.util.ArrayList<>(grads.size());
        for (int i = 0; i < grads.size(); i++) {
            out.add(grads.get(i) != null ? grads.get(i) : Variable.of(Tensor.zerosLike(inputs.get(i).data())));
        }
        return out;
    }
}
