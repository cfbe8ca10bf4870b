package dev.jgrad.autograd;

import dev.jgrad.tensor.ArrayOps;
import dev.jgrad.tensor.DType;
import dev.jgrad.tensor.Index;
import dev.jgrad.tensor.ScatterReduce;
import dev.jgrad.tensor.Tensor;

import java.util.Arrays;
import java.util.List;

/**
 * A tensor that autograd tracks, as a PyTorch tensor with {@code requires_grad}: the same method names
 * as {@link Tensor}, plus {@link #backward()}, {@link #grad()}, {@link #detach()} and {@link #isLeaf()}.
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
 * {@link ViewOps}, {@link IndexOps}, {@link LinalgOps}, {@link InplaceOps}), each forward beside its backward.
 */
public class Variable implements ArrayOps<Variable> {
    final Tensor data;
    Tensor grad;
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

    // ---------------------------------------------------------------- autograd surface

    /** The values, as a tensor (shared, not copied). */
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
        this.grad = g;
    }

    /** Zeroes the gradient in place (keeping its buffer for the next step), as {@code zero_grad(set_to_none=False)}. */
    public void zeroGrad() {
        if (grad != null) {
            grad.zero();
        }
    }

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
        Engine.backward(this, null, false);
    }

    /** Backward with the upstream gradient {@code grad} (of this value's shape). */
    public void backward(Tensor grad) {
        Engine.backward(this, grad, false);
    }

    /** Backward, keeping the saved tensors when {@code retainGraph} so that a second backward can run. */
    public void backward(Tensor grad, boolean retainGraph) {
        Engine.backward(this, grad, retainGraph);
    }

    // ---------------------------------------------------------------- metadata

    @Override
    public int[] shape() {
        return data.shape();
    }

    public int size(int dim) {
        return data.size(dim);
    }

    @Override
    public int dim() {
        return data.dim();
    }

    public int numel() {
        return data.numel();
    }

    public DType dtype() {
        return data.dtype();
    }

    public double item() {
        return data.item();
    }

    // ---------------------------------------------------------------- pointwise

    @Override
    public Variable add(Variable other) {
        return PointwiseOps.add(this, other);
    }

    public Variable add(double s) {
        return PointwiseOps.addScalar(this, s);
    }

    @Override
    public Variable sub(Variable other) {
        return PointwiseOps.sub(this, other);
    }

    public Variable sub(double s) {
        return PointwiseOps.addScalar(this, -s);
    }

    /** {@code s - this}. */
    public Variable rsub(double s) {
        return PointwiseOps.rsub(this, s);
    }

    @Override
    public Variable mul(Variable other) {
        return PointwiseOps.mul(this, other);
    }

    public Variable mul(double s) {
        return PointwiseOps.mulScalar(this, s);
    }

    @Override
    public Variable div(Variable other) {
        return PointwiseOps.div(this, other);
    }

    public Variable div(double s) {
        return PointwiseOps.mulScalar(this, 1.0 / s, "div", s);
    }

    /** {@code s / this}. */
    public Variable rdiv(double s) {
        return PointwiseOps.rdiv(this, s);
    }

    public Variable pow(Variable exponent) {
        return PointwiseOps.pow(this, exponent);
    }

    public Variable pow(double exponent) {
        return PointwiseOps.powScalar(this, exponent);
    }

    /** {@code base ** this}. */
    public Variable rpow(double base) {
        return PointwiseOps.rpow(this, base);
    }

    public Variable maximum(Variable other) {
        return PointwiseOps.maxMin(this, other, true);
    }

    public Variable minimum(Variable other) {
        return PointwiseOps.maxMin(this, other, false);
    }

    @Override
    public Variable neg() {
        return PointwiseOps.unary(PointwiseOps.Fn.NEG, this);
    }

    public Variable abs() {
        return PointwiseOps.unary(PointwiseOps.Fn.ABS, this);
    }

    @Override
    public Variable exp() {
        return PointwiseOps.unary(PointwiseOps.Fn.EXP, this);
    }

    @Override
    public Variable log() {
        return PointwiseOps.unary(PointwiseOps.Fn.LOG, this);
    }

    public Variable log1p() {
        return PointwiseOps.unary(PointwiseOps.Fn.LOG1P, this);
    }

    public Variable sqrt() {
        return PointwiseOps.unary(PointwiseOps.Fn.SQRT, this);
    }

    public Variable rsqrt() {
        return PointwiseOps.unary(PointwiseOps.Fn.RSQRT, this);
    }

    public Variable sin() {
        return PointwiseOps.unary(PointwiseOps.Fn.SIN, this);
    }

    public Variable cos() {
        return PointwiseOps.unary(PointwiseOps.Fn.COS, this);
    }

    public Variable tanh() {
        return PointwiseOps.unary(PointwiseOps.Fn.TANH, this);
    }

    public Variable sigmoid() {
        return PointwiseOps.unary(PointwiseOps.Fn.SIGMOID, this);
    }

    public Variable relu() {
        return PointwiseOps.unary(PointwiseOps.Fn.RELU, this);
    }

    public Variable silu() {
        return PointwiseOps.unary(PointwiseOps.Fn.SILU, this);
    }

    public Variable gelu() {
        return PointwiseOps.unary(PointwiseOps.Fn.GELU, this);
    }

    /** GELU, exact or with the tanh approximation. */
    public Variable gelu(boolean tanhApproximation) {
        return PointwiseOps.unary(tanhApproximation ? PointwiseOps.Fn.GELU_TANH : PointwiseOps.Fn.GELU, this);
    }

    @Override
    public Variable square() {
        return PointwiseOps.unary(PointwiseOps.Fn.SQUARE, this);
    }

    public Variable reciprocal() {
        return PointwiseOps.unary(PointwiseOps.Fn.RECIPROCAL, this);
    }

    public Variable erf() {
        return PointwiseOps.unary(PointwiseOps.Fn.ERF, this);
    }

    /** {@code torch.clamp}; NaN for an absent bound. The gradient passes where min &lt;= x &lt;= max. */
    public Variable clamp(double min, double max) {
        return PointwiseOps.clamp(this, min, max);
    }

    public Variable clampMin(double min) {
        return PointwiseOps.clamp(this, min, Double.NaN);
    }

    public Variable clampMax(double max) {
        return PointwiseOps.clamp(this, Double.NaN, max);
    }

    public static Variable where(Variable cond, Variable a, Variable b) {
        return PointwiseOps.where(cond.data, a, b);
    }

    public static Variable where(Variable cond, Variable a, double b) {
        return PointwiseOps.where(cond.data, a, new Variable(Tensor.scalarLike(b, a.data)));
    }

    public static Variable where(Variable cond, double a, Variable b) {
        return PointwiseOps.where(cond.data, new Variable(Tensor.scalarLike(a, b.data)), b);
    }

    public Variable maskedFill(Variable mask, double value) {
        return PointwiseOps.maskedFill(this, mask.data, value);
    }

    public Variable maskedFill(Tensor mask, double value) {
        return PointwiseOps.maskedFill(this, mask, value);
    }

    // comparisons and logical ops: no gradient, bool results

    public Variable eq(Variable o) {
        return new Variable(data.eq(o.data));
    }

    public Variable eq(double s) {
        return new Variable(data.eq(s));
    }

    public Variable ne(Variable o) {
        return new Variable(data.ne(o.data));
    }

    public Variable ne(double s) {
        return new Variable(data.ne(s));
    }

    public Variable lt(Variable o) {
        return new Variable(data.lt(o.data));
    }

    public Variable lt(double s) {
        return new Variable(data.lt(s));
    }

    public Variable le(Variable o) {
        return new Variable(data.le(o.data));
    }

    public Variable le(double s) {
        return new Variable(data.le(s));
    }

    public Variable gt(Variable o) {
        return new Variable(data.gt(o.data));
    }

    public Variable gt(double s) {
        return new Variable(data.gt(s));
    }

    public Variable ge(Variable o) {
        return new Variable(data.ge(o.data));
    }

    public Variable ge(double s) {
        return new Variable(data.ge(s));
    }

    public Variable logicalAnd(Variable o) {
        return new Variable(data.logicalAnd(o.data));
    }

    public Variable logicalOr(Variable o) {
        return new Variable(data.logicalOr(o.data));
    }

    public Variable logicalNot() {
        return new Variable(data.logicalNot());
    }

    // ---------------------------------------------------------------- reductions

    @Override
    public Variable sum() {
        return ReduceOps.sum(this, null, false);
    }

    public Variable sum(int dim) {
        return ReduceOps.sum(this, new int[] {dim}, false);
    }

    public Variable sum(int dim, boolean keepdim) {
        return ReduceOps.sum(this, new int[] {dim}, keepdim);
    }

    @Override
    public Variable sum(int[] dims, boolean keepdim) {
        return ReduceOps.sum(this, dims, keepdim);
    }

    public Variable mean() {
        return ReduceOps.mean(this, null, false);
    }

    public Variable mean(int dim) {
        return ReduceOps.mean(this, new int[] {dim}, false);
    }

    public Variable mean(int dim, boolean keepdim) {
        return ReduceOps.mean(this, new int[] {dim}, keepdim);
    }

    public Variable mean(int[] dims, boolean keepdim) {
        return ReduceOps.mean(this, dims, keepdim);
    }

    public Variable prod() {
        return ReduceOps.prod(this, null, false);
    }

    public Variable prod(int dim, boolean keepdim) {
        return ReduceOps.prod(this, new int[] {dim}, keepdim);
    }

    public Variable prod(int[] dims, boolean keepdim) {
        return ReduceOps.prod(this, dims, keepdim);
    }

    public Variable amax() {
        return ReduceOps.amaxAmin(this, null, false, true);
    }

    public Variable amax(int dim, boolean keepdim) {
        return ReduceOps.amaxAmin(this, new int[] {dim}, keepdim, true);
    }

    public Variable amax(int[] dims, boolean keepdim) {
        return ReduceOps.amaxAmin(this, dims, keepdim, true);
    }

    public Variable amin() {
        return ReduceOps.amaxAmin(this, null, false, false);
    }

    public Variable amin(int dim, boolean keepdim) {
        return ReduceOps.amaxAmin(this, new int[] {dim}, keepdim, false);
    }

    public Variable amin(int[] dims, boolean keepdim) {
        return ReduceOps.amaxAmin(this, dims, keepdim, false);
    }

    public Variable logsumexp(int dim, boolean keepdim) {
        return ReduceOps.logsumexp(this, new int[] {dim}, keepdim);
    }

    public Variable logsumexp(int[] dims, boolean keepdim) {
        return ReduceOps.logsumexp(this, dims, keepdim);
    }

    public Variable var() {
        return ReduceOps.var(this, null, 1, false);
    }

    public Variable var(int dim, boolean keepdim) {
        return ReduceOps.var(this, new int[] {dim}, 1, keepdim);
    }

    public Variable var(int[] dims, double correction, boolean keepdim) {
        return ReduceOps.var(this, dims, correction, keepdim);
    }

    /** {@code torch.max(x, dim)}: values (differentiable, the gradient goes to the chosen index) and int64 indices. */
    public MaxResult max(int dim, boolean keepdim) {
        return ReduceOps.maxMin(this, dim, keepdim, true);
    }

    public MaxResult min(int dim, boolean keepdim) {
        return ReduceOps.maxMin(this, dim, keepdim, false);
    }

    public Variable argmax(int dim, boolean keepdim) {
        return new Variable(data.argmax(dim, keepdim));
    }

    public Variable softmax(int dim) {
        return ReduceOps.softmax(this, dim, false);
    }

    public Variable logSoftmax(int dim) {
        return ReduceOps.softmax(this, dim, true);
    }

    @Override
    public Variable sumTo(int... shape) {
        return ReduceOps.sumTo(this, shape);
    }

    // ---------------------------------------------------------------- views

    @Override
    public Variable view(int... shape) {
        return ViewOps.reshapeLike("view", this, data.view(shape));
    }

    @Override
    public Variable reshape(int... shape) {
        return ViewOps.reshapeLike("reshape", this, data.reshape(shape));
    }

    @Override
    public Variable transpose(int dim0, int dim1) {
        return ViewOps.transpose(this, dim0, dim1);
    }

    public Variable t() {
        return dim() < 2 ? this : transpose(0, 1);
    }

    public Variable mT() {
        return transpose(-2, -1);
    }

    @Override
    public Variable permute(int... dims) {
        return ViewOps.permute(this, dims);
    }

    @Override
    public Variable expand(int... sizes) {
        return ViewOps.expand(this, sizes);
    }

    public Variable broadcastTo(int... sizes) {
        return ViewOps.expand(this, sizes);
    }

    public Variable expandAs(Variable other) {
        return ViewOps.expand(this, other.shape());
    }

    @Override
    public Variable unsqueeze(int dim) {
        return ViewOps.reshapeLike("unsqueeze", this, data.unsqueeze(dim));
    }

    public Variable squeeze() {
        return ViewOps.reshapeLike("squeeze", this, data.squeeze());
    }

    @Override
    public Variable squeeze(int dim) {
        return ViewOps.reshapeLike("squeeze", this, data.squeeze(dim));
    }

    public Variable flatten() {
        return ViewOps.reshapeLike("flatten", this, data.flatten());
    }

    public Variable flatten(int startDim, int endDim) {
        return ViewOps.reshapeLike("flatten", this, data.flatten(startDim, endDim));
    }

    public Variable unflatten(int dim, int... sizes) {
        return ViewOps.reshapeLike("unflatten", this, data.unflatten(dim, sizes));
    }

    public Variable movedim(int source, int destination) {
        return ViewOps.movedim(this, source, destination);
    }

    public Variable slice(int dim, int start, int end, int step) {
        return ViewOps.slice(this, dim, start, end, step);
    }

    public Variable slice(int dim, int start, int end) {
        return ViewOps.slice(this, dim, start, end, 1);
    }

    public Variable narrow(int dim, int start, int length) {
        data.narrow(dim, start, length); // only to check dim, start and length, with the tensor's messages
        int d = dim < 0 ? dim + dim() : dim;
        int s = start < 0 ? start + data.size(d) : start;
        return ViewOps.slice(this, d, s, s + length, 1);
    }

    @Override
    public Variable select(int dim, int index) {
        return ViewOps.select(this, dim, index);
    }

    @Override
    public Variable diagonal(int offset, int dim1, int dim2) {
        return ViewOps.diagonal(this, offset, dim1, dim2);
    }

    public List<Variable> split(int splitSize, int dim) {
        return ViewOps.pieces(this, data.split(splitSize, dim), dim);
    }

    public List<Variable> split(int[] sizes, int dim) {
        return ViewOps.pieces(this, data.split(sizes, dim), dim);
    }

    public List<Variable> chunk(int chunks, int dim) {
        return ViewOps.pieces(this, data.chunk(chunks, dim), dim);
    }

    public List<Variable> tensorSplit(int sections, int dim) {
        return ViewOps.pieces(this, data.tensorSplit(sections, dim), dim);
    }

    public List<Variable> unbind(int dim) {
        return ViewOps.unbind(this, dim);
    }

    @Override
    public Variable contiguous() {
        return data.isContiguous() ? this : ViewOps.copy("contiguous", this);
    }

    /** A copy with its own storage, still connected to the graph (unlike {@link #detach()}). */
    @Override
    public Variable clone() {
        return ViewOps.copy("clone", this);
    }

    public Variable flip(int... dims) {
        return ViewOps.flip(this, dims);
    }

    // ---------------------------------------------------------------- indexing and joining

    public Variable index(Index... indices) {
        return IndexOps.index(this, indices);
    }

    public Variable gather(int dim, Tensor index) {
        return IndexOps.gather(this, dim, index);
    }

    public Variable takeAlongDim(Tensor index, int dim) {
        return IndexOps.takeAlongDim(this, index, dim);
    }

    public Variable scatter(int dim, Tensor index, Variable src) {
        return IndexOps.scatter(this, dim, index, src);
    }

    public Variable scatterAdd(int dim, Tensor index, Variable src) {
        return IndexOps.scatterAdd(this, dim, index, src);
    }

    public Variable scatterReduce(int dim, Tensor index, Variable src, ScatterReduce reduce, boolean includeSelf) {
        return IndexOps.scatterReduce(this, dim, index, src, reduce, includeSelf);
    }

    public Variable indexSelect(int dim, Tensor index) {
        return IndexOps.indexSelect(this, dim, index);
    }

    public Variable indexAdd(int dim, Tensor index, Variable source) {
        return IndexOps.indexAdd(this, dim, index, source);
    }

    public Variable indexPut(Index[] indices, Variable values, boolean accumulate) {
        return IndexOps.indexPut(this, indices, values, accumulate);
    }

    public static Variable cat(List<Variable> parts, int dim) {
        return IndexOps.cat(parts, dim);
    }

    public static Variable cat(int dim, Variable... parts) {
        return IndexOps.cat(Arrays.asList(parts), dim);
    }

    public static Variable stack(List<Variable> parts, int dim) {
        return IndexOps.stack(parts, dim);
    }

    public static Variable stack(int dim, Variable... parts) {
        return IndexOps.stack(Arrays.asList(parts), dim);
    }

    // ---------------------------------------------------------------- linear algebra

    @Override
    public Variable matmul(Variable other) {
        return LinalgOps.matmul(this, other);
    }

    /** {@code F.linear(x, w, b)}; b may be null. */
    public static Variable linear(Variable x, Variable w, Variable b) {
        return LinalgOps.linear(x, w, b);
    }

    public static Variable einsum(String equation, Variable... operands) {
        return dev.jgrad.tensor.Einsum.run(equation, Arrays.asList(operands));
    }

    // ---------------------------------------------------------------- in place

    public Variable addi(Variable other) {
        return InplaceOps.add(this, other, 1.0);
    }

    public Variable addi(double s) {
        return InplaceOps.addScalar(this, s);
    }

    public Variable subi(Variable other) {
        return InplaceOps.add(this, other, -1.0);
    }

    public Variable subi(double s) {
        return InplaceOps.addScalar(this, -s);
    }

    public Variable muli(Variable other) {
        return InplaceOps.mul(this, other);
    }

    public Variable muli(double s) {
        return InplaceOps.mulScalar(this, s);
    }

    public Variable divi(Variable other) {
        return InplaceOps.div(this, other);
    }

    public Variable divi(double s) {
        return InplaceOps.mulScalar(this, 1.0 / s);
    }

    public Variable maskedFilli(Tensor mask, double value) {
        return InplaceOps.maskedFill(this, mask, value);
    }

    public Variable copyFrom(Variable src) {
        return InplaceOps.copy(this, src);
    }

    public Variable fill(double value) {
        return InplaceOps.fill(this, value);
    }

    public Variable zero() {
        return InplaceOps.fill(this, 0.0);
    }

    /** The values, and where this value came from in the graph. */
    @Override
    public String toString() {
        String s = data.toString();
        String tail = gradFn != null ? ", grad_fn=" + gradFn : (requiresGrad ? ", requires_grad=true" : "");
        return tail.isEmpty() ? s : s.substring(0, s.length() - 1) + tail + ")";
    }
}
