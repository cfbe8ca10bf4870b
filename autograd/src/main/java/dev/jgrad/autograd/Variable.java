package dev.jgrad.autograd;

import dev.jgrad.tensor.ArrayOps;
import dev.jgrad.tensor.BinaryOp;
import dev.jgrad.tensor.DType;
import dev.jgrad.tensor.Index;
import dev.jgrad.tensor.ScatterReduce;
import dev.jgrad.tensor.Tensor;
import dev.jgrad.tensor.UnaryOp;
import dev.jgrad.tensor.ValuesIndices;

import java.util.Arrays;
import java.util.List;

/**
 * A tensor that autograd tracks, as a PyTorch tensor with {@code requires_grad}: the same op surface
 * as {@link Tensor} ({@link ArrayOps}: this class implements its primitives and inherits every overload
 * and composite), plus {@link #backward()}, {@link #grad()}, {@link #detach()} and {@link #isLeaf()}.
 *
 * <pre>{@code
 * Variable w = Variable.of(Tensor.randn(gen, 3, 1), true);
 * Variable loss = x.matmul(w).sub(y).square().mean();
 * loss.backward();
 * Tensor dw = w.grad();
 * }</pre>
 *
 * Ops are recorded only where some input requires a gradient and grad mode is on ({@link NoGrad}).
 * In-place ops ({@code addi}, {@code muli}, ...) follow PyTorch's rules: refused on a leaf that requires
 * grad (allowed under NoGrad), recorded on other values, and caught at backward if they modified a
 * tensor that an op saved. The ops live in one class per family ({@link PointwiseOps}, {@link ReduceOps},
 * {@link ViewOps}, {@link IndexOps}, {@link LinalgOps}, {@link InplaceOps}), each forward beside its backward;
 * elementwise ops take their derivatives from {@link UnaryOp} and {@link BinaryOp}, where each is declared.
 */
public class Variable implements ArrayOps<Variable> {
    final Tensor data;
    Tensor grad;
    /** The gradient with its history, after a backward with createGraph (its data is {@link #grad}). */
    Variable gradVariable;
    private boolean requiresGrad;
    Node gradFn;
    /** The variable this one is a view of (sharing storage), for PyTorch's in-place rules on views. */
    Variable base;

    /** A variable that requires no gradient. */
    Variable(Tensor data) {
        this.data = data;
    }

    /** A leaf, for subclasses such as nn's Parameter. */
    protected Variable(Tensor data, boolean requiresGrad) {
        this.data = data;
        this.requiresGrad = requiresGrad;
    }

    /** The output of a recorded op. */
    Variable(Tensor data, Node gradFn) {
        this.data = data;
        this.gradFn = gradFn;
        this.requiresGrad = true;
    }

    /** A leaf that does not require grad (inputs, targets, constants). */
    public static Variable of(Tensor data) {
        return new Variable(data);
    }

    /** A leaf; with {@code requiresGrad} its gradient accumulates in {@link #grad()} at each backward. */
    public static Variable of(Tensor data, boolean requiresGrad) {
        Variable v = new Variable(data);
        v.requiresGrad = requiresGrad;
        return v;
    }

    /** A 0-d float32 constant. */
    public static Variable scalar(double value) {
        return new Variable(Tensor.scalar(value));
    }

    /** A 0-d constant of the given type. */
    public static Variable scalar(double value, DType dtype) {
        return new Variable(Tensor.scalar(value, dtype));
    }

    // ---------------------------------------------------------------- autograd surface

    /** The values, as a tensor (shared, not copied). */
    @Override
    public Tensor data() {
        return data;
    }

    /** The accumulated gradient of a leaf (or of a value that called {@link #retainGrad()}), or null. */
    public Tensor grad() {
        return grad;
    }

    /** Replaces the gradient (null clears it), as assigning {@code p.grad} in PyTorch. */
    public void setGrad(Tensor g) {
        if (g != null && !Arrays.equals(g.shape(), data.shape())) {
            throw new AutogradException("assigned grad has data of a different size: " + Arrays.toString(g.shape())
                    + " for a variable of shape " + Arrays.toString(data.shape()));
        }
        this.grad = g == null ? null : g.keep();
        this.gradVariable = null;
    }

    /**
     * The accumulated gradient as a variable: after {@link #backward(Tensor, boolean, boolean)} with
     * {@code createGraph}, one with a history that can be differentiated again (as {@code x.grad} in
     * PyTorch after {@code backward(create_graph=True)}); otherwise a constant; null where there is none.
     */
    public Variable gradVariable() {
        if (gradVariable != null && gradVariable.data == grad) {
            return gradVariable;
        }
        return grad == null ? null : new Variable(grad);
    }

    /** Zeroes the gradient in place (keeping its buffer for the next step), as {@code zero_grad(set_to_none=False)}. */
    public void zeroGrad() {
        if (grad != null) {
            grad.zero();
        }
    }

    /** Whether gradients flow into this variable (a leaf that asked for them, or a result of one). */
    public boolean requiresGrad() {
        return requiresGrad;
    }

    /** Sets {@code requires_grad} on a leaf, as {@code requires_grad_()}. */
    public Variable requiresGrad(boolean value) {
        if (gradFn != null && !value) {
            throw new AutogradException("you can only change requires_grad flags of leaf variables. If you want to use a computed"
                    + " variable in a subgraph that doesn't require differentiation use var_no_grad = var.detach().");
        }
        this.requiresGrad = value;
        return this;
    }

    /** True for values no recorded op produced: inputs, parameters, constants, detached values. */
    public boolean isLeaf() {
        return gradFn == null;
    }

    /** The node that produced this value, or null for a leaf. */
    public Node gradFn() {
        return gradFn;
    }

    /** Keeps the gradient of this non-leaf value at the next backward. */
    public Variable retainGrad() {
        if (gradFn != null) {
            gradFn.retainer = this;
        }
        return this;
    }

    /** The same values, cut from the graph. */
    public Variable detach() {
        return new Variable(data);
    }

    /** Backward from a one-element root; frees the graph's saved tensors. */
    public void backward() {
        Engine.backward(this, null, false, false);
    }

    /** Backward with the upstream gradient {@code grad} (of this value's shape; null for a one-element root). */
    public void backward(Tensor grad) {
        Engine.backward(this, grad == null ? null : new Variable(grad), false, false);
    }

    /** Backward, keeping the saved tensors when {@code retainGraph} so that a second backward can run. */
    public void backward(Tensor grad, boolean retainGraph) {
        Engine.backward(this, grad == null ? null : new Variable(grad), retainGraph, false);
    }

    /**
     * Backward with PyTorch's {@code (gradient, retain_graph, create_graph)}: with {@code createGraph} the
     * backward pass is itself recorded, so each leaf's gradient ({@link #gradVariable()}) can be
     * differentiated again; it implies {@code retainGraph}, as in PyTorch.
     */
    public void backward(Tensor grad, boolean retainGraph, boolean createGraph) {
        backward(grad == null ? null : new Variable(grad), retainGraph, createGraph);
    }

    /** As {@link #backward(Tensor, boolean, boolean)}, with an upstream gradient that may itself have a history. */
    public void backward(Variable grad, boolean retainGraph, boolean createGraph) {
        Engine.backward(this, grad, retainGraph || createGraph, createGraph);
    }

    // ---------------------------------------------------------------- the primitives of ArrayOps

    @Override
    public int[] shape() {
        return data.shape();
    }

    @Override
    public int dim() {
        return data.dim();
    }

    @Override
    public int numel() {
        return data.numel();
    }

    @Override
    public DType dtype() {
        return data.dtype();
    }

    /** A constant: a leaf that requires no gradient. */
    @Override
    public Variable constant(Tensor values) {
        return new Variable(values);
    }

    @Override
    public Variable unary(UnaryOp op) {
        Variable out = PointwiseOps.unary(op, this);
        return Trace.on() ? Trace.record(out, "unary", this, op) : out;
    }

    @Override
    public Variable binary(BinaryOp op, Variable other) {
        Variable out = PointwiseOps.binary(op, this, other);
        return Trace.on() ? Trace.record(out, "binary", this, op, other) : out;
    }

    @Override
    public Variable clamp(double min, double max) {
        Variable out = PointwiseOps.clamp(this, min, max);
        return Trace.on() ? Trace.record(out, "clamp", this, min, max) : out;
    }

    @Override
    public Variable leakyRelu(double negativeSlope) {
        Variable out = PointwiseOps.leakyRelu(this, negativeSlope);
        return Trace.on() ? Trace.record(out, "leakyRelu", this, negativeSlope) : out;
    }

    @Override
    public Variable where(Variable cond, Variable other) {
        Variable out = PointwiseOps.where(cond.data, this, other);
        return Trace.on() ? Trace.record(out, "where", this, cond, other) : out;
    }

    @Override
    public Variable maskedFill(Tensor mask, double value) {
        Variable out = PointwiseOps.maskedFill(this, mask, value);
        return Trace.on() ? Trace.record(out, "maskedFill", this, mask, value) : out;
    }

    /** {@code x.masked_fill(mask, value)} with a mask computed from variables ({@code x.maskedFill(x.lt(0), 0)}). */
    public Variable maskedFill(Variable mask, double value) {
        Variable out = PointwiseOps.maskedFill(this, mask.data, value);
        return Trace.on() ? Trace.record(out, "maskedFill", this, mask, value) : out;
    }

    /** A cast; between floating types the gradient is cast back, to an integer or bool type it stops. */
    @Override
    public Variable to(DType dtype) {
        Variable out = PointwiseOps.to(this, dtype);
        return Trace.on() ? Trace.record(out, "to", this, dtype) : out;
    }

    @Override
    public Variable sum(int[] dims, boolean keepdim) {
        Variable out = ReduceOps.sum(this, dims, keepdim);
        return Trace.on() ? Trace.record(out, "sum", this, dims, keepdim) : out;
    }

    @Override
    public Variable mean(int[] dims, boolean keepdim) {
        Variable out = ReduceOps.mean(this, dims, keepdim);
        return Trace.on() ? Trace.record(out, "mean", this, dims, keepdim) : out;
    }

    @Override
    public Variable prod(int[] dims, boolean keepdim) {
        Variable out = ReduceOps.prod(this, dims, keepdim);
        return Trace.on() ? Trace.record(out, "prod", this, dims, keepdim) : out;
    }

    @Override
    public Variable amax(int[] dims, boolean keepdim) {
        Variable out = ReduceOps.amaxAmin(this, dims, keepdim, true);
        return Trace.on() ? Trace.record(out, "amax", this, dims, keepdim) : out;
    }

    @Override
    public Variable amin(int[] dims, boolean keepdim) {
        Variable out = ReduceOps.amaxAmin(this, dims, keepdim, false);
        return Trace.on() ? Trace.record(out, "amin", this, dims, keepdim) : out;
    }

    @Override
    public Variable logsumexp(int[] dims, boolean keepdim) {
        Variable out = ReduceOps.logsumexp(this, dims, keepdim);
        return Trace.on() ? Trace.record(out, "logsumexp", this, dims, keepdim) : out;
    }

    @Override
    public Variable var(int[] dims, double correction, boolean keepdim) {
        Variable out = ReduceOps.var(this, dims, correction, keepdim);
        return Trace.on() ? Trace.record(out, "var", this, dims, correction, keepdim) : out;
    }

    @Override
    public ValuesIndices<Variable> sort(int dim, boolean descending) {
        ValuesIndices<Variable> out = ReduceOps.sort(this, dim, descending);
        if (Trace.on()) {
            Trace.recordAll(new Tensor[] {out.values().data, out.indices()}, "sort", this, dim, descending);
        }
        return out;
    }

    @Override
    public ValuesIndices<Variable> topk(int k, int dim, boolean largest) {
        ValuesIndices<Variable> out = ReduceOps.topk(this, k, dim, largest);
        if (Trace.on()) {
            Trace.recordAll(new Tensor[] {out.values().data, out.indices()}, "topk", this, k, dim, largest);
        }
        return out;
    }

    @Override
    public Variable cumsum(int dim) {
        Variable out = ReduceOps.cumsum(this, dim);
        return Trace.on() ? Trace.record(out, "cumsum", this, dim) : out;
    }

    /** {@code torch.max(x, dim)}: values (the gradient goes to the chosen index) and int64 indices. */
    @Override
    public ValuesIndices<Variable> max(int dim, boolean keepdim) {
        ValuesIndices<Variable> out = ReduceOps.maxMin(this, dim, keepdim, true);
        if (Trace.on()) {
            Trace.recordAll(new Tensor[] {out.values().data, out.indices()}, "max", this, dim, keepdim);
        }
        return out;
    }

    @Override
    public ValuesIndices<Variable> min(int dim, boolean keepdim) {
        ValuesIndices<Variable> out = ReduceOps.maxMin(this, dim, keepdim, false);
        if (Trace.on()) {
            Trace.recordAll(new Tensor[] {out.values().data, out.indices()}, "min", this, dim, keepdim);
        }
        return out;
    }

    @Override
    public Variable softmax(int dim) {
        Variable out = ReduceOps.softmax(this, dim, false);
        return Trace.on() ? Trace.record(out, "softmax", this, dim) : out;
    }

    @Override
    public Variable logSoftmax(int dim) {
        Variable out = ReduceOps.softmax(this, dim, true);
        return Trace.on() ? Trace.record(out, "logSoftmax", this, dim) : out;
    }

    @Override
    public Variable sumTo(int... shape) {
        Variable out = ReduceOps.sumTo(this, shape);
        return Trace.on() ? Trace.record(out, "sumTo", this, shape) : out;
    }

    @Override
    public Variable view(int... shape) {
        Variable out = ViewOps.reshapeLike("view", this, data.view(shape));
        return Trace.on() ? Trace.record(out, "view", this, shape) : out;
    }

    @Override
    public Variable reshape(int... shape) {
        Variable out = ViewOps.reshapeLike("reshape", this, data.reshape(shape));
        return Trace.on() ? Trace.record(out, "reshape", this, shape) : out;
    }

    @Override
    public Variable transpose(int dim0, int dim1) {
        Variable out = ViewOps.transpose(this, dim0, dim1);
        return Trace.on() ? Trace.record(out, "transpose", this, dim0, dim1) : out;
    }

    @Override
    public Variable permute(int... dims) {
        Variable out = ViewOps.permute(this, dims);
        return Trace.on() ? Trace.record(out, "permute", this, dims) : out;
    }

    @Override
    public Variable expand(int... sizes) {
        Variable out = ViewOps.expand(this, sizes);
        return Trace.on() ? Trace.record(out, "expand", this, sizes) : out;
    }

    @Override
    public Variable unsqueeze(int dim) {
        Variable out = ViewOps.reshapeLike("unsqueeze", this, data.unsqueeze(dim));
        return Trace.on() ? Trace.record(out, "unsqueeze", this, dim) : out;
    }

    @Override
    public Variable squeeze() {
        Variable out = ViewOps.reshapeLike("squeeze", this, data.squeeze());
        return Trace.on() ? Trace.record(out, "squeeze", this) : out;
    }

    @Override
    public Variable squeeze(int dim) {
        Variable out = ViewOps.reshapeLike("squeeze", this, data.squeeze(dim));
        return Trace.on() ? Trace.record(out, "squeeze", this, dim) : out;
    }

    @Override
    public Variable slice(int dim, int start, int end, int step) {
        Variable out = ViewOps.slice(this, dim, start, end, step);
        return Trace.on() ? Trace.record(out, "slice", this, dim, start, end, step) : out;
    }

    @Override
    public Variable select(int dim, int index) {
        Variable out = ViewOps.select(this, dim, index);
        return Trace.on() ? Trace.record(out, "select", this, dim, index) : out;
    }

    @Override
    public Variable diagonal(int offset, int dim1, int dim2) {
        Variable out = ViewOps.diagonal(this, offset, dim1, dim2);
        return Trace.on() ? Trace.record(out, "diagonal", this, offset, dim1, dim2) : out;
    }

    @Override
    public Variable unfold(int dim, int size, int step) {
        Variable out = ViewOps.unfold(this, dim, size, step);
        return Trace.on() ? Trace.record(out, "unfold", this, dim, size, step) : out;
    }

    @Override
    public Variable flip(int... dims) {
        Variable out = ViewOps.flip(this, dims);
        return Trace.on() ? Trace.record(out, "flip", this, dims) : out;
    }

    @Override
    public Variable pad(int[] pad, double value) {
        Variable out = ViewOps.pad(this, pad, value);
        return Trace.on() ? Trace.record(out, "pad", this, pad, value) : out;
    }

    /** A copy with its own storage, still connected to the graph (unlike {@link #detach()}). */
    @Override
    public Variable clone() {
        Variable out = ViewOps.copy("clone", this);
        return Trace.on() ? Trace.record(out, "clone", this) : out;
    }

    @Override
    public Variable index(Index... indices) {
        Variable out = IndexOps.index(this, indices);
        return Trace.on() ? Trace.record(out, "index", this, indices) : out;
    }

    @Override
    public Variable gather(int dim, Tensor index) {
        Variable out = IndexOps.gather(this, dim, index);
        return Trace.on() ? Trace.record(out, "gather", this, dim, index) : out;
    }

    @Override
    public Variable takeAlongDim(Tensor index, int dim) {
        Variable out = IndexOps.takeAlongDim(this, index, dim);
        return Trace.on() ? Trace.record(out, "takeAlongDim", this, index, dim) : out;
    }

    @Override
    public Variable scatter(int dim, Tensor index, Variable src) {
        Variable out = IndexOps.scatter(this, dim, index, src);
        return Trace.on() ? Trace.record(out, "scatter", this, dim, index, src) : out;
    }

    @Override
    public Variable scatterAdd(int dim, Tensor index, Variable src) {
        Variable out = IndexOps.scatterAdd(this, dim, index, src);
        return Trace.on() ? Trace.record(out, "scatterAdd", this, dim, index, src) : out;
    }

    @Override
    public Variable scatterReduce(int dim, Tensor index, Variable src, ScatterReduce reduce, boolean includeSelf) {
        Variable out = IndexOps.scatterReduce(this, dim, index, src, reduce, includeSelf);
        return Trace.on() ? Trace.record(out, "scatterReduce", this, dim, index, src, reduce, includeSelf) : out;
    }

    @Override
    public Variable indexSelect(int dim, Tensor index) {
        Variable out = IndexOps.indexSelect(this, dim, index);
        return Trace.on() ? Trace.record(out, "indexSelect", this, dim, index) : out;
    }

    @Override
    public Variable indexAdd(int dim, Tensor index, Variable source) {
        Variable out = IndexOps.indexAdd(this, dim, index, source);
        return Trace.on() ? Trace.record(out, "indexAdd", this, dim, index, source) : out;
    }

    @Override
    public Variable indexPut(Index[] indices, Variable values, boolean accumulate) {
        Variable out = IndexOps.indexPut(this, indices, values, accumulate);
        return Trace.on() ? Trace.record(out, "indexPut", this, indices, values, accumulate) : out;
    }

    @Override
    public Variable matmul(Variable other) {
        Variable out = LinalgOps.matmul(this, other);
        return Trace.on() ? Trace.record(out, "matmul", this, other) : out;
    }

    @Override
    public Variable inplace(BinaryOp op, Variable other) {
        Variable out = InplaceOps.binary(op, this, other);
        return Trace.on() ? Trace.record(out, "inplace", this, op, other) : out;
    }

    @Override
    public Variable addi(Variable other, double alpha) {
        return alpha == 1.0 ? addi(other) : addi(other.mul(alpha));
    }

    @Override
    public Variable maskedFilli(Tensor mask, double value) {
        Variable out = InplaceOps.maskedFill(this, mask, value);
        return Trace.on() ? Trace.record(out, "maskedFilli", this, mask, value) : out;
    }

    @Override
    public Variable copyFrom(Variable src) {
        Variable out = InplaceOps.copy(this, src);
        return Trace.on() ? Trace.record(out, "copyFrom", this, src) : out;
    }

    @Override
    public Variable fill(double value) {
        Variable out = InplaceOps.fill(this, value);
        return Trace.on() ? Trace.record(out, "fill", this, value) : out;
    }

    // ---------------------------------------------------------------- functions of several values

    /** {@code torch.where(cond, a, b)}: {@code a} where {@code cond} is true, {@code b} elsewhere; all three broadcast. */
    public static Variable where(Variable cond, Variable a, Variable b) {
        return a.where(cond, b);
    }

    /** {@code a} where {@code cond} is true, else {@code b}, broadcast. */
    public static Variable where(Variable cond, Variable a, double b) {
        return a.where(cond, b);
    }

    /** {@code a} where {@code cond} is true, else {@code b}, broadcast. */
    public static Variable where(Variable cond, double a, Variable b) {
        return b.newScalar(a).where(cond, b);
    }

    /** Both branches numbers: a constant. */
    public static Variable where(Variable cond, double a, double b) {
        return new Variable(Tensor.where(cond.data, a, b));
    }

    /** {@code torch.cat(parts, dim)}: the variables joined along {@code dim}; the gradient flows back to each part. */
    public static Variable cat(List<Variable> parts, int dim) {
        Variable out = IndexOps.cat(parts, dim);
        return Trace.on() ? Trace.record(out, "cat", parts, dim) : out;
    }

    /** {@code torch.cat} along {@code dim}. */
    public static Variable cat(int dim, Variable... parts) {
        Variable out = IndexOps.cat(Arrays.asList(parts), dim);
        return Trace.on() ? Trace.record(out, "cat", Arrays.asList(parts), dim) : out;
    }

    /** {@code torch.stack(parts, dim)}: the variables, all of one shape, along a new dim. */
    public static Variable stack(List<Variable> parts, int dim) {
        Variable out = IndexOps.stack(parts, dim);
        return Trace.on() ? Trace.record(out, "stack", parts, dim) : out;
    }

    /** {@code torch.stack} along {@code dim}. */
    public static Variable stack(int dim, Variable... parts) {
        Variable out = IndexOps.stack(Arrays.asList(parts), dim);
        return Trace.on() ? Trace.record(out, "stack", Arrays.asList(parts), dim) : out;
    }

    /** {@code F.linear(x, w, b)}; b may be null. */
    public static Variable linear(Variable x, Variable w, Variable b) {
        Variable out = LinalgOps.linear(x, w, b);
        return Trace.on() ? Trace.record(out, "linear", x, w, b) : out;
    }

    /** {@code torch.einsum(equation, operands)}, differentiable in every operand. */
    public static Variable einsum(String equation, Variable... operands) {
        Variable out = dev.jgrad.tensor.Einsum.run(equation, Arrays.asList(operands));
        return Trace.on() ? Trace.record(out, "einsum", equation, operands) : out;
    }

    /** The values, and where this value came from in the graph. */
    @Override
    public String toString() {
        String s = data.toString();
        String tail = gradFn != null ? ", grad_fn=" + gradFn : (requiresGrad ? ", requires_grad=true" : "");
        return tail.isEmpty() ? s : s.substring(0, s.length() - 1) + tail + ")";
    }
}
