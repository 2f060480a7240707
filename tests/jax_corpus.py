"""A corpus of small, realistic JAX programs (the layers, losses, norms and
optimizer steps of a model), for ``tests/tools/test_jax_corpus.py`` and
``benchmarks/jax_corpus.py``: each is exported by ``jax.jit(fn).lower`` at
test time, run by bcast on every backend and round-tripped to XLA.

Each entry of ``PROGRAMS`` is a function and a maker of its example
arguments from a seeded NumPy generator (``example_args``), so every run
sees the same inputs. The functions are written as a model's code would
write them (``jax.nn``, ``jnp`` methods, Python constants), not shaped to
what bcast supports: the test's table says what each one still needs.

``export(name)`` lowers a program once per process, in the three forms
bcast reads (``FORMS``); ``kept_ops`` names the StableHLO/CHLO ops of an
export that bcast's import keeps as they are, i.e. what bcast cannot run
yet. Imports jax at module level: import this module only where jax is
installed.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
import time

import zlib

import jax
import jax.numpy as jnp
import numpy as np

import bcast
from bcast.ir.diagnostics import is_unknown, written_name
from bcast.tools import driver
from bcast.tools.api import BACKENDS
from bcast.tools.jax_bridge import lower_to_stablehlo

SEED = 20261126


@dataclass(frozen=True)
class Case:
    fn: Callable
    make_args: Callable[[np.random.Generator], tuple]
    description: str


def normal(rng: np.random.Generator, shape, dtype=np.float32, scale: float = 1.0) -> np.ndarray:
    return (scale * rng.standard_normal(shape)).astype(dtype)


def positive(rng: np.random.Generator, shape, dtype=np.float32) -> np.ndarray:
    return rng.uniform(0.1, 2.0, shape).astype(dtype)


# -- activations ------------------------------------------------------------

def softmax(x):
    return jax.nn.softmax(x, axis=-1)


def log_softmax(x):
    return jax.nn.log_softmax(x, axis=-1)


def logsumexp(x):
    return jax.nn.logsumexp(x, axis=-1)


def gelu_tanh(x):
    return jax.nn.gelu(x, approximate=True)


def gelu_erf(x):
    return jax.nn.gelu(x, approximate=False)


def silu(x):
    return x * jax.nn.sigmoid(x)


def relu6(x):
    return jnp.clip(x, 0.0, 6.0)


def leaky_relu_elu(x):
    return jnp.where(x > 0, x, 0.01 * x) + jnp.where(x > 0, x, jnp.expm1(x))


def softplus_stable(x):
    return jnp.maximum(x, 0.0) + jnp.log1p(jnp.exp(-jnp.abs(x)))


def expm1_log1p(x):
    return jnp.expm1(x * 0.5) - jnp.log1p(jnp.abs(x))


def softmax_f16(x):
    """A half-precision softmax as mixed-precision code writes it: the
    reduction in f32, the result back in f16."""
    x32 = x.astype(jnp.float32)
    e = jnp.exp(x32 - x32.max(axis=-1, keepdims=True))
    return (e / e.sum(axis=-1, keepdims=True)).astype(jnp.float16)


def gelu_f16(x):
    return jax.nn.gelu(x, approximate=True)


# -- normalization ----------------------------------------------------------

def layernorm(x, gamma, beta):
    mean = x.mean(axis=-1, keepdims=True)
    var = ((x - mean) ** 2).mean(axis=-1, keepdims=True)
    return (x - mean) * jax.lax.rsqrt(var + 1e-5) * gamma + beta


def rmsnorm(x, weight):
    ms = jnp.mean(x * x, axis=-1, keepdims=True)
    return x / jnp.sqrt(ms + 1e-6) * weight


def batchnorm_inference(x, mean, var, gamma, beta):
    """NHWC activations, per-channel running statistics."""
    return (x - mean) / jnp.sqrt(var + 1e-3) * gamma + beta


def l2_normalize(x):
    return x / jnp.linalg.norm(x, axis=-1, keepdims=True).clip(1e-12)


def cosine_similarity(a, b):
    dot = jnp.sum(a * b, axis=-1)
    return dot / (jnp.linalg.norm(a, axis=-1) * jnp.linalg.norm(b, axis=-1) + 1e-8)


def masked_mean(x, mask):
    """Mean over the tokens a boolean mask keeps (a sequence pooler)."""
    m = mask.astype(x.dtype)
    return (x * m[..., None]).sum(axis=1) / jnp.maximum(m.sum(axis=1, keepdims=True), 1.0)


# -- layers -----------------------------------------------------------------

def bias_residual(x, residual, bias):
    return x + bias + residual


def mlp_layer(x, w, b):
    return jax.nn.gelu(x @ w + b)


def swiglu(x, w_gate, w_up):
    return jax.nn.silu(x @ w_gate) * (x @ w_up)


def causal_attention_scores(q, k):
    scores = q @ k.T / jnp.sqrt(jnp.float32(q.shape[-1]))
    mask = jnp.tril(jnp.ones((q.shape[0], k.shape[0]), dtype=bool))
    return jax.nn.softmax(jnp.where(mask, scores, -1e9), axis=-1)


def attention(q, k, v):
    weights = jax.nn.softmax(q @ k.T / 4.0, axis=-1)
    return weights @ v


def sinusoidal_positions(positions):
    """Transformer positional encoding of i32 positions, 8 channels."""
    freqs = jnp.exp(-jnp.log(10000.0) * jnp.arange(0, 8, 2, dtype=jnp.float32) / 8)
    angles = positions[:, None].astype(jnp.float32) * freqs[None, :]
    return jnp.concatenate([jnp.sin(angles), jnp.cos(angles)], axis=-1)


def transpose_scale(x):
    return x.T * 2.0


# -- indexing and shapes ----------------------------------------------------

def one_hot(labels):
    return jax.nn.one_hot(labels, 10, dtype=jnp.float32)


def argmax_rows(x):
    return jnp.argmax(x, axis=-1).astype(jnp.int32)


def cumsum_rows(x):
    return jnp.cumsum(x, axis=-1)


def cumprod_rows(x):
    return jnp.cumprod(x, axis=-1)


def argmin_columns(x):
    return jnp.argmin(x, axis=0)


def running_max(x):
    return jax.lax.cummax(x, axis=1)


def pad_sequence(x):
    return jnp.pad(x, ((0, 0), (1, 2)), constant_values=0.0)


def slice_columns(x):
    return x[:, 1:3] * 2.0


def reverse_rows(x):
    return x[::-1] + 1.0


def kv_cache_write(cache, k, pos):
    """A decoder's key cache: this step's key row written at a traced position."""
    return jax.lax.dynamic_update_slice(cache, k, (pos, jnp.int32(0)))


def window_at(x, start):
    """A window of 3 time steps from a traced start, scaled (``lax.dynamic_slice_in_dim``)."""
    return jax.lax.dynamic_slice_in_dim(x, start, 3, axis=1) * 0.5


# -- indexing with traced integer arrays (stablehlo.gather) -----------------

def rows_at(x, i):
    """``x[i]`` with a traced i32 array: negative indices wrap, others out of
    range clamp (XLA's gather), and the rows are scaled."""
    return x[i] * 2.0


def take_columns(x, i):
    """``jnp.take`` along axis 1: out-of-range indices give NaN (its
    default ``fill`` mode, a select around the gather)."""
    return jnp.take(x, i, axis=1)


def pick_per_row(scores, idx):
    """``take_along_axis`` with two picks per row (a batched gather)."""
    return jnp.take_along_axis(scores, idx, axis=1) + 1.0


def embedding_lookup(table, tokens):
    """A token embedding of a (batch, seq) id array, scaled by sqrt(d)."""
    return table[tokens] * jnp.sqrt(jnp.float32(table.shape[1]))


# -- indexed updates (stablehlo.scatter) -------------------------------------

def rows_set(x, i, v):
    """``x.at[i].set(v)``: distinct rows (which of two writes to one row
    wins is left to the implementation), one out of range (dropped)."""
    return x.at[i].set(v * 2.0)


def embedding_grad(tokens, grads):
    """``zeros.at[tokens].add(g)``: an embedding table's gradient, repeated
    ids summed, out-of-range ids dropped."""
    return jnp.zeros((12, 4), jnp.float32).at[tokens].add(grads)


def concat_features(a, b):
    return jnp.concatenate([a, b * 2.0], axis=-1)


# -- losses -----------------------------------------------------------------

def mse_loss(pred, target):
    return jnp.mean((pred - target) ** 2)


def huber_loss(pred, target):
    d = jnp.abs(pred - target)
    return jnp.mean(jnp.where(d < 1.0, 0.5 * d * d, d - 0.5))


def cross_entropy(logits, labels):
    logp = jax.nn.log_softmax(logits, axis=-1)
    picked = jnp.take_along_axis(logp, labels[:, None], axis=-1)
    return -jnp.mean(picked)


def sigmoid_bce_with_logits(logits, targets):
    return jnp.mean(jnp.maximum(logits, 0) - logits * targets + jnp.log1p(jnp.exp(-jnp.abs(logits))))


# -- optimizers -------------------------------------------------------------

def adam_step(param, grad, m, v, step):
    b1, b2, lr, eps = 0.9, 0.999, 1e-3, 1e-8
    m = b1 * m + (1 - b1) * grad
    v = b2 * v + (1 - b2) * grad * grad
    m_hat = m / (1 - b1 ** step)
    v_hat = v / (1 - b2 ** step)
    return param - lr * m_hat / (jnp.sqrt(v_hat) + eps), m, v


def sgd_momentum(param, grad, velocity):
    velocity = 0.9 * velocity + grad
    return param - 0.01 * velocity, velocity


def clip_by_global_norm(g1, g2):
    norm = jnp.sqrt(jnp.sum(g1 * g1) + jnp.sum(g2 * g2))
    scale = jnp.minimum(1.0, 1.0 / (norm + 1e-6))
    return g1 * scale, g2 * scale


# -- integers and booleans --------------------------------------------------

def quantize_i32(x, scale):
    """Symmetric int8-range quantization kept in i32: round, clamp."""
    return jnp.clip(jnp.round(x / scale), -128, 127).astype(jnp.int32)


def int_relu_sum(a, b):
    return jnp.maximum(a + b, 0).sum(axis=0)


def bool_attention_mask(pad_mask, causal):
    """A key-padding mask (per sequence) and a causal mask, combined."""
    return jnp.logical_and(pad_mask[:, None, :], causal[None, :, :])


def count_positive(x):
    return jnp.sum(x > 0, axis=-1).astype(jnp.int32)


def relative_position_bucket(offsets):
    """T5-style bucketing of i32 offsets: sign, floor division, remainder."""
    sign = jnp.where(offsets < 0, 16, 0)
    return sign + jnp.minimum(jnp.abs(offsets) // 4, 15), offsets % 7


def shift_hash(x):
    """A cheap integer hash of i32 ids (feature hashing)."""
    h = x * 31 + 17
    return (h ^ (h >> 3)) & 1023


def masked_softmax(x, mask):
    """Masked with -inf, as attention code does: a row with nothing kept
    is NaN in JAX and must be NaN in bcast too."""
    return jax.nn.softmax(jnp.where(mask, x, -jnp.inf), axis=-1)


def mask_logic(a, b):
    return jnp.logical_xor(a, b) | ~a


def mean_of_ints(x):
    return jnp.mean(x, axis=0)


def unbiased_variance(x):
    return jnp.var(x, axis=0, ddof=1)


def finite_logits(x, temperature):
    """Temperature-scaled logits, non-finite values replaced."""
    scaled = x / temperature
    return jnp.where(jnp.isfinite(scaled), scaled, -1e4)


def adam_step_int_count(param, grad, m, v, count):
    """Adam as optax writes it: the step count an i32 scalar."""
    step = (count + 1).astype(jnp.float32)
    m = 0.9 * m + 0.1 * grad
    v = 0.999 * v + 0.001 * jnp.square(grad)
    update = (m / (1 - 0.9 ** step)) / (jnp.sqrt(v / (1 - 0.999 ** step)) + 1e-8)
    return param - 1e-3 * update, m, v, count + 1


def weight_decay_f16(param, grad):
    """An SGD step on f16 weights with decoupled weight decay."""
    return param - jnp.float16(0.01) * (grad + jnp.float16(1e-4) * param)


def max_pool_rows(x):
    """Max over pairs of neighbouring features (a 1-D max-pool by reshape)."""
    return x.reshape(x.shape[0], -1, 2).max(axis=-1)


# -- control flow -------------------------------------------------------------

def power_iteration(a):
    """Five steps of power iteration (jax.lax.fori_loop)."""
    def step(i, v):
        w = a @ v
        return w / jnp.linalg.norm(w)
    return jax.lax.fori_loop(0, 5, step, jnp.ones(a.shape[1], a.dtype))


def rnn_scan(xs, w, h0):
    """A tanh RNN over the rows of ``xs`` (jax.lax.scan): the last state and every state."""
    def cell(h, x):
        h = jnp.tanh(h @ w + x)
        return h, h
    return jax.lax.scan(cell, h0, xs)


def cond_scale(x):
    """Double ``x`` when its sum is positive, else shift it (jax.lax.cond)."""
    return jax.lax.cond(jnp.sum(x) > 0, lambda v: v * 2.0, lambda v: v - 1.0, x)


def switch_activation(k, x):
    """One of three activations picked at run time (jax.lax.switch)."""
    return jax.lax.switch(k, [jax.nn.relu, jnp.tanh, jax.nn.sigmoid], x)


def nested_loops(x):
    """A fori_loop inside a fori_loop; the inner trip count is the outer counter."""
    def outer(i, v):
        return jax.lax.fori_loop(0, i, lambda j, u: u * 0.5 + j, v)
    return jax.lax.fori_loop(0, 4, outer, x)


def newton_sqrt(a):
    """sqrt by Newton's iteration until no element moves (jax.lax.while_loop on data)."""
    def step(state):
        x, _ = state
        return 0.5 * (x + a / x), x
    return jax.lax.while_loop(lambda s: jnp.max(jnp.abs(s[0] - s[1])) > 1e-6, step, (a, a + 1.0))[0]


def double_until(n, x):
    """Doubles ``x`` until the step count reaches ``n``, an argument (a while_loop bound by data)."""
    return jax.lax.while_loop(lambda s: s[0] < n, lambda s: (s[0] + 1, s[1] * 2.0), (0, x))[1]


def long_fori(x):
    """10,000 steps of a contraction (a fori_loop past the unroll limit)."""
    return jax.lax.fori_loop(0, 10_000, lambda i, v: v * 0.5 + (i % 3).astype(v.dtype), x)


def dropout(x):
    """Dropout with a fixed key (jax.random.bernoulli: threefry, bit casts)."""
    keep = jax.random.bernoulli(jax.random.key(3), 0.8, x.shape)
    return jnp.where(keep, x / 0.8, 0.0)


def normal_init(x):
    """``x`` plus normal noise from a fixed key (jax.random.normal)."""
    return x + 0.02 * jax.random.normal(jax.random.key(0), x.shape)


# -- special functions (CHLO's float functions) -----------------------------

def gamma_cdf(shape, x):
    """The gamma distribution's CDF (``jax.lax.igamma``: while loops of
    series and continued fractions, ``chlo.lgamma`` inside)."""
    return jax.lax.igamma(shape, x)


def poisson_nll(log_rate, counts):
    """The Poisson negative log-likelihood of counts, per row, with the
    ``log(k!)`` term (``jax.scipy.special.gammaln``: ``chlo.lgamma``)."""
    rate = jnp.exp(log_rate)
    return (rate - counts * log_rate + jax.scipy.special.gammaln(counts + 1.0)).sum(axis=-1)


def dirichlet_expected_log(alpha):
    """``E[log p]`` under a Dirichlet (variational inference's update):
    ``digamma(alpha) - digamma(alpha.sum())`` per row."""
    return jax.scipy.special.digamma(alpha) - jax.scipy.special.digamma(alpha.sum(axis=-1, keepdims=True))


def polar_features(xy):
    """A feature transform of 2-D points: the angle (``arctan2``), the
    radius compressed by ``arcsinh``, ``cosh``/``sinh`` of a scaled radius,
    and ``arctanh`` of a squashed coordinate."""
    x, y = xy[..., 0], xy[..., 1]
    r = jnp.sqrt(x * x + y * y)
    return jnp.stack([jnp.arctan2(y, x), jnp.arcsinh(r), jnp.cosh(r / 4) - jnp.sinh(r / 4),
                      jnp.arctanh(jnp.tanh(x) * 0.9)], axis=-1)


def angle_between(a, b):
    """The angle between rows (``arccos`` of the clipped cosine) and its
    ``arcsin``/``arctan`` forms."""
    cos = (a * b).sum(-1) / jnp.sqrt((a * a).sum(-1) * (b * b).sum(-1))
    cos = jnp.clip(cos, -1.0, 1.0)
    return jnp.arccos(cos), jnp.arcsin(cos), jnp.arctan(cos), jnp.arccosh(1.0 + cos * cos)


def open_unit_interval(u):
    """Uniform samples moved into the open interval (0, 1), as samplers do
    before a ``log``: ``jnp.nextafter`` of the ends."""
    low, high = jnp.nextafter(jnp.float32(0.5), jnp.float32(0)), jnp.nextafter(jnp.float32(1), jnp.float32(0))
    return jnp.log(jnp.clip(u, low * 1e-6, high)), jnp.nextafter(u, 2.0 * u)


# -- sorting (stablehlo.sort) ------------------------------------------------

def trimmed_mean(x):
    """The mean of each row without its smallest and largest value (``jnp.sort``)."""
    return jnp.sort(x, axis=-1)[:, 1:-1].mean(axis=-1)


def rank_positions(x):
    """Each element's rank in its row: ``argsort`` of ``argsort``."""
    return jnp.argsort(jnp.argsort(x, axis=-1), axis=-1).astype(jnp.int32)


def top_k_probs(logits):
    """The 3 most likely classes and their probabilities (``jax.lax.top_k``)."""
    probs, classes = jax.lax.top_k(jax.nn.softmax(logits, axis=-1), 3)
    return probs, classes


def nucleus_mask(logits):
    """Top-p (0.9) sampling's mask: probabilities sorted descending, summed,
    and kept while the sum before them is under p."""
    probs = jnp.sort(jax.nn.softmax(logits, axis=-1), axis=-1, descending=True)
    before = jnp.cumsum(probs, axis=-1) - probs
    return jnp.where(before < 0.9, probs, 0.0)


def rank_within_groups(groups, scores):
    """Items ordered by group, then by score from the highest, each row's
    item ids in that order (``jax.lax.sort`` with ``num_keys=2``)."""
    ids = jnp.broadcast_to(jnp.arange(scores.shape[-1], dtype=jnp.int32), scores.shape)
    _, _, order = jax.lax.sort((groups, -scores, ids), dimension=1, num_keys=2)
    return order


def lexsort_rows(x):
    """The rows of ``x`` ordered by column 0, ties by column 1
    (``jnp.lexsort``), gathered."""
    return x[jnp.lexsort((x[:, 1], x[:, 0]))]


# -- pooling (stablehlo.reduce_window) and combining scatters ---------------

def max_pool_2d(x):
    """``flax.linen.max_pool`` of an NHWC batch: 2x2 windows, stride 2."""
    return jax.lax.reduce_window(x, -jnp.inf, jax.lax.max, (1, 2, 2, 1), (1, 2, 2, 1), "VALID")


def avg_pool_same(x):
    """``flax.linen.avg_pool`` with SAME padding, 3x3 windows, stride 2,
    counting the padding (flax's default): the window sum divided by 9."""
    return jax.lax.reduce_window(x, 0.0, jax.lax.add, (1, 3, 3, 1), (1, 2, 2, 1), "SAME") / 9.0


def segment_max_min(x, ids, v):
    """``x.at[ids].max(v)`` and ``.min(v)``: repeated ids combine, out-of-range ids are dropped."""
    return x.at[ids].max(v), x.at[ids].min(v)


def rows_scaled(x, i, s):
    """``x.at[i].multiply(s)``: rows scaled in place, a repeated row twice."""
    return x.at[i].multiply(s)


def conv_bias_relu(x, w, b):
    """``flax.linen.Conv`` (NHWC/HWIO, 3x3, SAME) with its bias, then relu."""
    y = jax.lax.conv_general_dilated(x, w, (1, 1), "SAME", dimension_numbers=("NHWC", "HWIO", "NHWC"))
    return jax.nn.relu(y + b)


def depthwise_conv(x, w):
    """A depthwise 3x3 convolution, stride 2 (MobileNet's): one group per input channel."""
    return jax.lax.conv_general_dilated(x, w, (2, 2), "SAME", dimension_numbers=("NHWC", "HWIO", "NHWC"),
                                        feature_group_count=x.shape[-1])


def grouped_conv_kernel_grad(x, w):
    """The gradient of a grouped convolution's squared output w.r.t. its
    kernel: JAX writes a convolution with ``batch_group_count``."""
    def loss(w):
        y = jax.lax.conv_general_dilated(x, w, (1, 1), "SAME", dimension_numbers=("NHWC", "HWIO", "NHWC"),
                                         feature_group_count=2)
        return (y * y).sum()
    return jax.grad(loss)(w)


def argmax_pool(x):
    """An argmax-pooling: ``lax.reduce_window`` of (x, its flat index) whose
    body keeps the larger value, the smaller index on a tie; 2x2 windows,
    stride 2, SAME padding."""
    index = jnp.arange(x.size, dtype=jnp.int32).reshape(x.shape)

    def larger(a, b):
        pick = (b[0] > a[0]) | ((b[0] == a[0]) & (b[1] < a[1]))
        return jnp.where(pick, b[0], a[0]), jnp.where(pick, b[1], a[1])
    return jax.lax.reduce_window((x, index), (-jnp.inf, jnp.int32(0)), larger, (1, 2, 2, 1), (1, 2, 2, 1),
                                 "SAME")


def sum_and_max_pool(x, y):
    """One ``lax.reduce_window`` of two inputs, a tuple of independent
    reductions: the 2x2 window sum of ``x`` and max of ``y``, SAME padding."""
    return jax.lax.reduce_window((x, y), (0.0, -jnp.inf), lambda a, b: (a[0] + b[0], jnp.maximum(b[1], a[1])),
                                 (1, 2, 2, 1), (1, 1, 2, 1), "SAME")


def log_cumsum_exp(x):
    """A running log-normalizer (``lax.cumlogsumexp``: a reduce_window
    whose body is logaddexp's ops)."""
    return jax.lax.cumlogsumexp(x, axis=1)


# -- linear algebra (LAPACK's getrf and potrf on a CPU) ------------------------

def well_conditioned(rng: np.random.Generator, shape, dtype=np.float32) -> np.ndarray:
    """Square matrices (the last two dims) with a dominant diagonal."""
    n = shape[-1]
    return (rng.standard_normal(shape) + n * np.eye(n)).astype(dtype)


def spd(rng: np.random.Generator, shape, dtype=np.float32) -> np.ndarray:
    """Symmetric positive definite matrices: ``m m^T + n I``."""
    m = rng.standard_normal(shape)
    return (m @ np.swapaxes(m, -1, -2) + shape[-1] * np.eye(shape[-1])).astype(dtype)


def linear_solve(a, b):
    """``jnp.linalg.solve``: LU with partial pivoting (getrf), the pivots as a
    permutation (a while loop), two triangular solves."""
    return jnp.linalg.solve(a, b)


def inverse_and_logdet(a):
    """``jnp.linalg.inv`` and ``slogdet`` of one matrix (getrf twice)."""
    sign, logdet = jnp.linalg.slogdet(a)
    return jnp.linalg.inv(a), sign, logdet


def batched_det(a):
    """``jnp.linalg.det`` of a batch of 5x5 matrices (getrf with a batch dim)."""
    return jnp.linalg.det(a)


def gaussian_logpdf(x, mean, cov):
    """``jax.scipy.stats.multivariate_normal.logpdf``: Cholesky (potrf), a
    triangular solve, the log of the factor's diagonal."""
    return jax.scipy.stats.multivariate_normal.logpdf(x, mean, cov)


def ridge_regression(x, y):
    """Ridge regression's weights: ``cho_solve(cho_factor(X^T X + I), X^T y)``."""
    gram = x.T @ x + jnp.eye(x.shape[1], dtype=x.dtype)
    return jax.scipy.linalg.cho_solve(jax.scipy.linalg.cho_factor(gram), x.T @ y)


# -- spectra (stablehlo.fft) ----------------------------------------------------

def spectral_lowpass(x):
    """A low-pass filter in the frequency domain: ``rfft`` of each row, the
    frequencies above a cutoff zeroed, ``irfft`` back to the row's length."""
    spectrum = jnp.fft.rfft(x, axis=-1)
    keep = jnp.arange(spectrum.shape[-1]) < 8
    return jnp.fft.irfft(jnp.where(keep, spectrum, 0), n=x.shape[-1], axis=-1)


def power_spectrum(x):
    """A periodogram: each row Hann-windowed, ``|rfft|^2`` normalized by the
    window's energy, in decibels."""
    n = x.shape[-1]
    window = 0.5 - 0.5 * jnp.cos(2 * jnp.pi * jnp.arange(n) / n)
    power = jnp.abs(jnp.fft.rfft(x * window, axis=-1)) ** 2 / jnp.sum(window**2)
    return 10 * jnp.log10(power + 1e-12)


PROGRAMS: dict[str, Case] = {
    "softmax": Case(softmax, lambda r: (normal(r, (4, 16)),), "jax.nn.softmax over rows"),
    "log_softmax": Case(log_softmax, lambda r: (normal(r, (4, 16)),), "jax.nn.log_softmax over rows"),
    "logsumexp": Case(logsumexp, lambda r: (normal(r, (4, 16)),), "jax.nn.logsumexp over rows"),
    "gelu_tanh": Case(gelu_tanh, lambda r: (normal(r, (4, 16)),), "jax.nn.gelu(approximate=True)"),
    "gelu_erf": Case(gelu_erf, lambda r: (normal(r, (4, 16)),), "jax.nn.gelu(approximate=False)"),
    "silu": Case(silu, lambda r: (normal(r, (4, 16)),), "x * sigmoid(x)"),
    "relu6": Case(relu6, lambda r: (normal(r, (4, 16), scale=4.0),), "jnp.clip(x, 0, 6)"),
    "leaky_relu_elu": Case(leaky_relu_elu, lambda r: (normal(r, (4, 16)),), "leaky relu + elu"),
    "softplus_stable": Case(softplus_stable, lambda r: (normal(r, (4, 16), scale=5.0),), "max(x,0)+log1p(exp(-|x|))"),
    "expm1_log1p": Case(expm1_log1p, lambda r: (normal(r, (4, 16)),), "expm1 and log1p"),
    "softmax_f16": Case(softmax_f16, lambda r: (normal(r, (4, 16), np.float16),), "f16 softmax, f32 inside"),
    "gelu_f16": Case(gelu_f16, lambda r: (normal(r, (4, 16), np.float16),), "f16 tanh gelu"),
    "layernorm": Case(layernorm, lambda r: (normal(r, (4, 16)), normal(r, (16,)), normal(r, (16,))),
                      "layernorm with gamma, beta"),
    "rmsnorm": Case(rmsnorm, lambda r: (normal(r, (4, 16)), normal(r, (16,))), "RMSNorm"),
    "batchnorm_inference": Case(batchnorm_inference, lambda r: (normal(r, (2, 3, 3, 8)), normal(r, (8,)),
                                                                  positive(r, (8,)), normal(r, (8,)), normal(r, (8,))),
                                "NHWC batchnorm, running statistics"),
    "l2_normalize": Case(l2_normalize, lambda r: (normal(r, (4, 16)),), "x / ||x|| over rows"),
    "cosine_similarity": Case(cosine_similarity, lambda r: (normal(r, (4, 16)), normal(r, (16,))),
                              "rows against one vector"),
    "masked_mean": Case(masked_mean, lambda r: (normal(r, (2, 5, 8)), r.random((2, 5)) < 0.6),
                        "mean over tokens a bool mask keeps"),
    "bias_residual": Case(bias_residual, lambda r: (normal(r, (4, 16)), normal(r, (4, 16)), normal(r, (16,))),
                          "x + bias + residual"),
    "mlp_layer": Case(mlp_layer, lambda r: (normal(r, (4, 8)), normal(r, (8, 16)), normal(r, (16,))),
                      "gelu(x @ W + b)"),
    "swiglu": Case(swiglu, lambda r: (normal(r, (4, 8)), normal(r, (8, 16)), normal(r, (8, 16))),
                   "silu(x @ Wg) * (x @ Wu)"),
    "causal_attention_scores": Case(causal_attention_scores, lambda r: (normal(r, (6, 8)), normal(r, (6, 8))),
                                    "softmax of q k^T / sqrt(d), tril mask"),
    "attention": Case(attention, lambda r: (normal(r, (6, 8)), normal(r, (6, 8)), normal(r, (6, 8))),
                      "softmax(q k^T / 4) v"),
    "sinusoidal_positions": Case(sinusoidal_positions, lambda r: (r.integers(0, 512, (6,)).astype(np.int32),),
                                 "sin/cos positional encoding"),
    "transpose_scale": Case(transpose_scale, lambda r: (normal(r, (4, 6)),), "x.T * 2"),
    "one_hot": Case(one_hot, lambda r: (r.integers(0, 10, (6,)).astype(np.int32),), "jax.nn.one_hot, 10 classes"),
    "argmax_rows": Case(argmax_rows, lambda r: (normal(r, (4, 16)),), "jnp.argmax over rows"),
    "cumsum_rows": Case(cumsum_rows, lambda r: (normal(r, (4, 8)),), "jnp.cumsum over rows"),
    "cumprod_rows": Case(cumprod_rows, lambda r: (positive(r, (4, 8)),), "jnp.cumprod over rows"),
    "argmin_columns": Case(argmin_columns, lambda r: (normal(r, (8, 5)),), "jnp.argmin over columns"),
    "running_max": Case(running_max, lambda r: (normal(r, (4, 8)),), "jax.lax.cummax over rows"),
    "pad_sequence": Case(pad_sequence, lambda r: (normal(r, (4, 6)),), "jnp.pad, 1 before and 2 after"),
    "slice_columns": Case(slice_columns, lambda r: (normal(r, (4, 6)),), "x[:, 1:3]"),
    "reverse_rows": Case(reverse_rows, lambda r: (normal(r, (4, 6)),), "x[::-1]"),
    "kv_cache_write": Case(kv_cache_write, lambda r: (normal(r, (8, 4)), normal(r, (1, 4)),
                                                      np.int32(r.integers(0, 8))),
                           "lax.dynamic_update_slice of a cache row at a traced position"),
    "window_at": Case(window_at, lambda r: (normal(r, (4, 10)), np.int32(r.integers(-12, 12))),
                      "lax.dynamic_slice_in_dim from a traced (possibly out-of-range) start"),
    "rows_at": Case(rows_at, lambda r: (normal(r, (6, 4)), r.integers(-8, 8, (5,)).astype(np.int32)),
                    "x[i], i a traced i32 array (negative and out-of-range ids)"),
    "take_columns": Case(take_columns, lambda r: (normal(r, (3, 8)), r.integers(-9, 11, (6,)).astype(np.int32)),
                         "jnp.take(x, i, axis=1), out-of-range ids filled with NaN"),
    "pick_per_row": Case(pick_per_row, lambda r: (normal(r, (4, 7)), r.integers(0, 7, (4, 2)).astype(np.int32)),
                         "jnp.take_along_axis with a (4, 2) index array"),
    "embedding_lookup": Case(embedding_lookup, lambda r: (normal(r, (16, 8)),
                                                          r.integers(0, 16, (2, 5)).astype(np.int32)),
                             "E[tokens], tokens a (2, 5) id array"),
    "rows_set": Case(rows_set, lambda r: (normal(r, (6, 4)), np.array([4, -1, 9, 0], np.int32), normal(r, (4, 4))),
                     "x.at[i].set(v), i with a negative and an out-of-range row"),
    "embedding_grad": Case(embedding_grad, lambda r: (r.integers(-2, 14, (2, 6)).astype(np.int32),
                                                      normal(r, (2, 6, 4))),
                           "zeros.at[tokens].add(g): repeated ids summed"),
    "concat_features": Case(concat_features, lambda r: (normal(r, (4, 3)), normal(r, (4, 5))),
                            "jnp.concatenate on the last axis"),
    "mse_loss": Case(mse_loss, lambda r: (normal(r, (8, 4)), normal(r, (8, 4))), "mean squared error"),
    "huber_loss": Case(huber_loss, lambda r: (normal(r, (8, 4), scale=2.0), normal(r, (8, 4))), "Huber loss"),
    "cross_entropy": Case(cross_entropy, lambda r: (normal(r, (6, 10)), r.integers(0, 10, (6,)).astype(np.int32)),
                          "log_softmax + take_along_axis"),
    "sigmoid_bce_with_logits": Case(sigmoid_bce_with_logits,
                                    lambda r: (normal(r, (8, 4), scale=3.0),
                                               (r.random((8, 4)) < 0.5).astype(np.float32)),
                                    "binary cross-entropy on logits"),
    "adam_step": Case(adam_step, lambda r: (normal(r, (4, 8)), normal(r, (4, 8)), normal(r, (4, 8), scale=0.1),
                                            positive(r, (4, 8)) * 0.01, np.float32(3.0)),
                      "one Adam update; step a scalar"),
    "sgd_momentum": Case(sgd_momentum, lambda r: (normal(r, (4, 8)), normal(r, (4, 8)), normal(r, (4, 8))),
                         "SGD with momentum"),
    "clip_by_global_norm": Case(clip_by_global_norm, lambda r: (normal(r, (4, 8)), normal(r, (8,))),
                                "two gradients scaled by their global norm"),
    "quantize_i32": Case(quantize_i32, lambda r: (normal(r, (4, 8), scale=50.0), np.float32(0.5)),
                         "round, clip to int8 range, to i32"),
    "int_relu_sum": Case(int_relu_sum, lambda r: (r.integers(-50, 50, (5, 4)).astype(np.int32),
                                                  r.integers(-50, 50, (4,)).astype(np.int32)),
                         "i32 max(a + b, 0) summed over axis 0"),
    "bool_attention_mask": Case(bool_attention_mask, lambda r: (r.random((2, 5)) < 0.7, r.random((5, 5)) < 0.5),
                                "padding mask and causal mask, logical and"),
    "count_positive": Case(count_positive, lambda r: (normal(r, (4, 16)),), "sum of a bool comparison"),
    "relative_position_bucket": Case(relative_position_bucket,
                                     lambda r: (r.integers(-100, 100, (6, 6)).astype(np.int32),),
                                     "i32 //, %, abs, where"),
    "shift_hash": Case(shift_hash, lambda r: (r.integers(-2**31, 2**31, (16,)).astype(np.int32),),
                       "i32 *, >>, ^, & (the product wraps)"),
    "masked_softmax": Case(masked_softmax,
                           lambda r: (normal(r, (3, 5), scale=30.0),
                                      np.array([[1, 1, 0, 1, 0], [0, 0, 0, 0, 0], [1, 0, 0, 0, 0]], bool)),
                           "softmax over -inf masked logits, one row all masked"),
    "mask_logic": Case(mask_logic, lambda r: (r.random((4, 4)) < 0.5, r.random((4,)) < 0.5), "bool xor, or, not"),
    "mean_of_ints": Case(mean_of_ints, lambda r: (r.integers(-9, 9, (5, 3)).astype(np.int32),),
                         "jnp.mean of i32 (an f32 result)"),
    "unbiased_variance": Case(unbiased_variance, lambda r: (normal(r, (6, 4)),), "jnp.var(ddof=1)"),
    "finite_logits": Case(finite_logits, lambda r: (np.array([[1.0, np.inf, -2.0], [np.nan, 0.5, -np.inf]],
                                                             np.float32), np.float32(0.7)),
                          "jnp.isfinite over scaled logits"),
    "adam_step_int_count": Case(adam_step_int_count,
                                lambda r: (normal(r, (4, 8)), normal(r, (4, 8)), normal(r, (4, 8), scale=0.1),
                                           positive(r, (4, 8)) * 0.01, np.int32(4)),
                                "Adam with an i32 step count"),
    "weight_decay_f16": Case(weight_decay_f16, lambda r: (normal(r, (4, 8), np.float16), normal(r, (4, 8), np.float16)),
                             "f16 SGD with weight decay"),
    "max_pool_rows": Case(max_pool_rows, lambda r: (normal(r, (4, 8)),), "reshape and max: a 1-D max-pool"),
    "power_iteration": Case(power_iteration, lambda r: (normal(r, (4, 4)),), "fori_loop of matvec and norm"),
    "rnn_scan": Case(rnn_scan, lambda r: (normal(r, (6, 4)), normal(r, (4, 4), scale=0.5), normal(r, (4,))),
                     "lax.scan of a tanh RNN cell"),
    "cond_scale": Case(cond_scale, lambda r: (normal(r, (3, 4)),), "lax.cond on a run-time sum"),
    "switch_activation": Case(switch_activation, lambda r: (np.int32(1), normal(r, (3, 4))),
                              "lax.switch of three activations"),
    "nested_loops": Case(nested_loops, lambda r: (normal(r, (5,)),), "a fori_loop inside a fori_loop"),
    "dropout": Case(dropout, lambda r: (normal(r, (16, 8)),), "jax.random.bernoulli mask"),
    "normal_init": Case(normal_init, lambda r: (normal(r, (8, 4)),), "jax.random.normal noise"),
    "gamma_cdf": Case(gamma_cdf, lambda r: (positive(r, (4, 5)) * 3.0, positive(r, (4, 5)) * 4.0),
                      "lax.igamma: while loops around chlo.lgamma"),
    "poisson_nll": Case(poisson_nll, lambda r: (normal(r, (4, 6), scale=0.5),
                                                r.poisson(2.0, (4, 6)).astype(np.float32)),
                        "gammaln (chlo.lgamma) in a log-likelihood"),
    "dirichlet_expected_log": Case(dirichlet_expected_log, lambda r: (positive(r, (3, 5)) * 2.0,),
                                   "digamma (chlo.digamma) of rows and of their sums"),
    "polar_features": Case(polar_features, lambda r: (normal(r, (6, 2), scale=3.0),),
                           "arctan2, arcsinh, cosh, sinh, arctanh features"),
    "angle_between": Case(angle_between, lambda r: (normal(r, (5, 3)), normal(r, (5, 3))),
                          "arccos/arcsin/arctan/arccosh of a cosine"),
    "open_unit_interval": Case(open_unit_interval, lambda r: (r.uniform(0.0, 1.0, (4, 4)).astype(np.float32),),
                               "jnp.nextafter (chlo.next_after)"),
    "trimmed_mean": Case(trimmed_mean, lambda r: (normal(r, (5, 8)),), "jnp.sort, the extremes dropped, mean"),
    "rank_positions": Case(rank_positions, lambda r: (r.integers(0, 4, (3, 9)).astype(np.float32),),
                           "argsort of argsort, rows full of ties"),
    "top_k_probs": Case(top_k_probs, lambda r: (normal(r, (4, 10), scale=2.0),), "lax.top_k of a softmax"),
    "nucleus_mask": Case(nucleus_mask, lambda r: (normal(r, (4, 12), scale=2.0),),
                         "top-p mask: sort descending, cumsum, where"),
    "max_pool_2d": Case(max_pool_2d, lambda r: (normal(r, (2, 6, 6, 3)),), "lax.reduce_window max, 2x2 stride 2"),
    "avg_pool_same": Case(avg_pool_same, lambda r: (normal(r, (2, 5, 5, 3)),),
                          "lax.reduce_window add, 3x3 stride 2 SAME, / 9"),
    "segment_max_min": Case(segment_max_min, lambda r: (normal(r, (6, 4)), np.array([1, 3, 1, 7, 0], np.int32),
                                                        normal(r, (5, 4))), "x.at[ids].max(v), .min(v)"),
    "newton_sqrt": Case(newton_sqrt, lambda r: (positive(r, (3, 4)) * 10.0,), "while_loop to convergence"),
    "double_until": Case(double_until, lambda r: (np.int32(6), normal(r, (5,))), "while_loop to a bound argument"),
    "long_fori": Case(long_fori, lambda r: (normal(r, (4, 3)),), "fori_loop of 10,000 steps"),
    "rows_scaled": Case(rows_scaled, lambda r: (normal(r, (5, 3)), np.array([4, 0, 4], np.int32),
                                                normal(r, (3, 3))), "x.at[i].multiply(s)"),
    "rank_within_groups": Case(rank_within_groups, lambda r: (r.integers(0, 3, (3, 10)).astype(np.int32),
                                                              r.integers(0, 4, (3, 10)).astype(np.float32)),
                               "lax.sort num_keys=2: by group, then score descending"),
    "lexsort_rows": Case(lexsort_rows, lambda r: (r.integers(0, 3, (9, 3)).astype(np.float32),),
                         "jnp.lexsort of two columns, rows gathered"),
    "conv_bias_relu": Case(conv_bias_relu, lambda r: (normal(r, (2, 8, 8, 3)), normal(r, (3, 3, 3, 8)),
                                                      normal(r, (8,))), "conv 3x3 SAME + bias + relu"),
    "depthwise_conv": Case(depthwise_conv, lambda r: (normal(r, (2, 9, 9, 4)), normal(r, (3, 3, 1, 4))),
                           "depthwise conv 3x3 stride 2 (feature_group_count)"),
    "grouped_conv_kernel_grad": Case(grouped_conv_kernel_grad, lambda r: (normal(r, (2, 6, 6, 4)),
                                                                          normal(r, (3, 3, 2, 6))),
                                     "grad of a grouped conv w.r.t. its kernel (batch_group_count)"),
    "sum_and_max_pool": Case(sum_and_max_pool, lambda r: (normal(r, (2, 5, 6, 3)), normal(r, (2, 5, 6, 3))),
                             "reduce_window of two inputs: window sum and max"),
    "argmax_pool": Case(argmax_pool, lambda r: (np.round(normal(r, (2, 5, 6, 3))),),
                        "reduce_window of (x, index): argmax-pooling with ties"),
    "log_cumsum_exp": Case(log_cumsum_exp, lambda r: (normal(r, (3, 40), scale=5.0),),
                           "lax.cumlogsumexp over 40 places"),
    "linear_solve": Case(linear_solve, lambda r: (well_conditioned(r, (5, 5)), normal(r, (5, 3))),
                         "jnp.linalg.solve (LAPACK getrf)"),
    "inverse_and_logdet": Case(inverse_and_logdet, lambda r: (well_conditioned(r, (4, 4)),),
                               "jnp.linalg.inv and slogdet"),
    "batched_det": Case(batched_det, lambda r: (well_conditioned(r, (3, 5, 5)) / 4,), "jnp.linalg.det of a batch"),
    "gaussian_logpdf": Case(gaussian_logpdf, lambda r: (normal(r, (6, 4)), normal(r, (4,)), spd(r, (4, 4))),
                            "multivariate normal log-pdf (LAPACK potrf)"),
    "ridge_regression": Case(ridge_regression, lambda r: (normal(r, (8, 4)), normal(r, (8,))),
                             "cho_factor + cho_solve of X^T X + I"),
    "spectral_lowpass": Case(spectral_lowpass, lambda r: (normal(r, (4, 64)),), "rfft, high frequencies zeroed, irfft"),
    "power_spectrum": Case(power_spectrum, lambda r: (normal(r, (3, 128)),), "Hann-windowed |rfft|^2 in dB"),
}


def example_args(name: str) -> tuple:
    """The example arguments of ``name``, the same on every call."""
    return PROGRAMS[name].make_args(np.random.default_rng([SEED, zlib.crc32(name.encode())]))


FORMS = ("pretty", "debug", "generic")
"""How a program's StableHLO is printed: ``pretty``: ``lowered.as_text()``;
``debug``: ``lowered.as_text(debug_info=True)`` (pretty, with JAX's
``#loc`` locations); ``generic``: MLIR's generic op form with locations
(``bcast.tools.jax_bridge.lower_to_stablehlo(located=True)``, what
``bcast.from_jax`` reads)."""


@dataclass(frozen=True)
class Export:
    texts: dict[str, str]
    args: tuple
    expected: tuple[np.ndarray, ...]


@cache
def export(name: str) -> Export:
    """``name`` lowered by ``jax.jit`` in every form, its example arguments
    and ``jax.jit``'s results on them (a tuple, one array per result)."""
    case, args = PROGRAMS[name], example_args(name)
    lowered = jax.jit(case.fn).lower(*args)
    texts = {
        "pretty": lowered.as_text(),
        "debug": lowered.as_text(debug_info=True),
        "generic": lower_to_stablehlo(case.fn, *args, located=True),
    }
    results = jax.jit(case.fn)(*args)
    results = results if isinstance(results, tuple) else (results,)
    return Export(texts, args, tuple(np.asarray(r) for r in results))


def kept_ops(text: str) -> tuple[str, ...]:
    """The ops bcast's import keeps as they are in ``text`` (a generic
    export), sorted: the outermost only, not the ops of a kept op's body
    (a multi-input ``stablehlo.reduce`` needs ``stablehlo.reduce``, not
    the ``compare`` inside it)."""
    module = driver.load(text, "<export>", pipeline="convert-stablehlo-to-bcast")
    return tuple(sorted({written_name(op) for op in module.walk()
                         if is_unknown(op) and not is_unknown(op.parent_op())}))


TOLERANCE = {
    np.dtype(np.float32): dict(rtol=2e-5, atol=2e-6),
    np.dtype(np.float16): dict(rtol=4e-3, atol=4e-3),
}
"""How close a float result must be to ``jax.jit``'s (integers and
booleans: equal); tests/tools/test_jax_corpus.py says why."""


def assert_as_jax(got, expected: tuple[np.ndarray, ...]) -> None:
    """``got`` (an array or a sequence of them) is ``jax.jit``'s results:
    dtypes and shapes, values within ``TOLERANCE``."""
    got = got if isinstance(got, (tuple, list)) else (got,)
    assert len(got) == len(expected), (len(got), len(expected))
    for i, (g, want) in enumerate(zip(got, expected, strict=True)):
        g = np.asarray(g)
        assert (g.dtype, g.shape) == (want.dtype, want.shape), f"result {i}: {g.dtype}{g.shape}"
        if want.dtype.kind == "f":
            np.testing.assert_allclose(g, want, err_msg=f"result {i}", **TOLERANCE[want.dtype])
        else:
            np.testing.assert_array_equal(g, want, err_msg=f"result {i}")


def backends_running(name: str) -> list[str]:
    """The backends on which the generic export of ``name`` runs to
    ``jax.jit``'s results."""
    exported, ok = export(name), []
    for backend in BACKENDS:
        try:
            assert_as_jax(bcast.compile(exported.texts["generic"], backend=backend)(*exported.args),
                          exported.expected)
        except (bcast.BcastError, AssertionError):
            continue
        ok.append(backend)
    return ok


def corpus_table() -> str:
    """One row per program: the ops it needs, the backends it runs on and
    the seconds the runs took; the last line counts the programs that run
    everywhere."""
    rows, everywhere = [f"{'program':26} {'needs':46} runs on"], 0
    for name in PROGRAMS:
        start = time.perf_counter()
        ok = backends_running(name)
        everywhere += ok == list(BACKENDS)
        needs = ", ".join(kept_ops(export(name).texts["generic"])) or "-"
        rows.append(f"{name:26} {needs:46} {', '.join(ok) or '-'} ({time.perf_counter() - start:.1f} s)")
    rows.append(f"{everywhere} of {len(PROGRAMS)} programs run on every backend ({', '.join(BACKENDS)})")
    return "\n".join(rows)
