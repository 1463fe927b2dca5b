#!/usr/bin/env python3
"""Writes the buffers of a real model's forward pass, unrolled layer by layer
over several micro-batches, as a static allocation problem in MiniMalloc's
CSV form (id,lower,upper,size; a buffer live over [lower, upper)).

From a Hugging Face config.json: hidden size, layers, heads, KV heads, head
dim, MLP or MoE sizes. Time is one step per operation. The buffers:

- each layer's weights (QKV, output projection, MLP or experts, two norms),
  live throughout;
- each micro-batch's residual stream, live from its embedding to its logits;
- each layer's KV cache for each micro-batch, live from the step that
  writes it to the end (decoding reads it after the prefill), or with
  KV=batch to its micro-batch's logits (the cache handed off);
- the activations of each operation (norm output, QKV, attention output,
  MLP gate and up, MLP hidden, router logits, expert outputs), live from the
  operation that writes them to the last that reads them;
- each micro-batch's logits, live one step.

Micro-batches have 512 to 4,096 tokens, in turn. Sizes are in bytes (bf16).

With TRAIN, a training step instead: each micro-batch's forward, then its
backward through the layers in reverse. Each layer's activations saved in
the forward (norm outputs, QKV, attention output, MLP gate and up, hidden;
for MoE the router logits and expert outputs) live until that layer's
backward; the gradients of the activations live one or two steps; each
layer's weight gradients live from the first backward that writes them to
the end (accumulated over the micro-batches); no KV cache.

    scripts/model-trace.py CONFIG.json MICRO_BATCHES [KV=end|batch|TRAIN] > problem.csv
"""
import json
import sys


def dims(config):
    """The sizes a trace needs from a config.json: hidden size, layers,
    vocabulary, experts and those per token (0 without), the MLP's (or an
    expert's) intermediate size, the query and the key-value widths."""
    c = config.get("text_config", config)
    h = c["hidden_size"]
    heads = c["num_attention_heads"]
    kv_heads = c.get("num_key_value_heads") or heads
    head_dim = c.get("head_dim") or h // heads
    experts = c.get("num_experts") or c.get("num_local_experts") or 0
    top_k = c.get("num_experts_per_tok") or 0
    inter = (c.get("moe_intermediate_size") or c.get("intermediate_size")) if experts else c["intermediate_size"]
    return (h, c["num_hidden_layers"], c["vocab_size"], experts, top_k, inter,
            heads * head_dim, kv_heads * head_dim)


def trace(config, micro_batches, kv_to_end=True):
    h, layers, vocab, experts, top_k, inter, q_dim, kv_dim = dims(config)
    b = 2  # bf16
    rows = []

    def buf(lo, hi, size):
        rows.append((lo, hi, size))

    # Weights, live throughout (their upper bound is set at the end).
    weights = []
    for _ in range(layers):
        weights.append((q_dim + 2 * kv_dim) * h * b)
        weights.append(q_dim * h * b)
        mlp = 3 * h * inter * b
        weights.append(mlp * experts if experts else mlp)
        weights += [h * b, h * b]
    t = 0
    tokens = [512, 1024, 2048, 4096]
    for mb in range(micro_batches):
        m = tokens[mb % len(tokens)]
        resid_start = t
        first_kv = len(rows)
        t += 1  # embedding
        for _ in range(layers):
            norm1 = t
            t += 1
            qkv = t
            buf(norm1, qkv + 1, m * h * b)  # norm output, read by QKV
            t += 1
            # KV cache for this micro-batch and layer: to the end.
            rows.append((qkv, None, 2 * m * kv_dim * b))
            attn = t
            buf(qkv, attn + 1, m * (q_dim + 2 * kv_dim) * b)  # QKV
            t += 1
            o_proj = t
            buf(attn, o_proj + 1, m * q_dim * b)  # attention output
            t += 1
            norm2 = t
            t += 1
            if experts:
                router = t
                buf(norm2, router + 1 + 1, m * h * b)  # norm output (router, experts)
                t += 1
                buf(router, t + 1, m * experts * 4)  # router logits, f32
                exp = t
                t += 1
                buf(exp, t + 1, m * top_k * h * b)  # expert outputs
                buf(exp, exp + 1, m * top_k * inter * 2 * b)  # expert gate/up
                t += 1  # combine
            else:
                up = t
                buf(norm2, up + 1, m * h * b)  # norm output
                t += 1
                act = t
                buf(up, act + 1, m * 2 * inter * b)  # gate and up
                t += 1
                down = t
                buf(act, down + 1, m * inter * b)  # hidden
                t += 1
        logits = t
        t += 1
        if not kv_to_end:
            rows[first_kv:] = [(lo, logits + 1 if hi is None else hi, size)
                               for lo, hi, size in rows[first_kv:]]
        buf(logits, logits + 1, min(m, 256) * vocab * b)
        buf(resid_start, t, m * h * b)  # residual stream
    end = t
    out = [(0, end, w) for w in weights]
    out += [(lo, end if hi is None else hi, size) for lo, hi, size in rows]
    lines = ["id,lower,upper,size"]
    lines += [f"{k},{lo},{hi},{size}" for k, (lo, hi, size) in enumerate(out) if size > 0]
    return "\n".join(lines) + "\n"


def train(config, micro_batches):
    h, layers, vocab, experts, top_k, inter, q_dim, kv_dim = dims(config)
    b = 2  # bf16
    weights = []
    for _ in range(layers):
        mlp = 3 * h * inter * b
        weights.append([(q_dim + 2 * kv_dim) * h * b, q_dim * h * b,
                        mlp * experts if experts else mlp, h * b, h * b])
    rows = []  # (lo, hi or None for the end, size)
    grads_from = [None] * layers
    t = 0
    tokens = [512, 1024, 2048, 4096]
    for mb in range(micro_batches):
        m = tokens[mb % len(tokens)]
        resid = t
        t += 1  # embedding
        saved = []  # per layer: the sizes of its saved activations, and when written
        for _ in range(layers):
            acts = [m * h * b, m * (q_dim + 2 * kv_dim) * b, m * q_dim * b, m * h * b]
            if experts:
                acts += [m * experts * 4, m * top_k * h * b, m * top_k * inter * 2 * b]
            else:
                acts += [m * 2 * inter * b, m * inter * b]
            saved.append((t, acts))
            t += len(acts)  # one operation writes each
        logits = t
        t += 1
        rows.append((logits, logits + 2, min(m, 256) * vocab * b))  # logits, and their gradient's read
        t += 1
        for layer in reversed(range(layers)):
            start, acts = saved[layer]
            for k, size in enumerate(acts):
                rows.append((start + k, t + 1, size))  # saved until this backward reads it
                rows.append((t, t + 2, size))  # its gradient, written and read by the next
                t += 1
            if grads_from[layer] is None:
                grads_from[layer] = t - 1
        rows.append((resid, t, m * h * b))  # residual stream
        rows.append((logits, t, m * h * b))  # its gradient, back to the embedding
    end = t
    out = [(0, end, w) for layer in weights for w in layer]
    out += [(grads_from[layer], end, w) for layer in range(layers) for w in weights[layer]]
    out += [(lo, end if hi is None else min(hi, end), size) for lo, hi, size in rows]
    lines = ["id,lower,upper,size"]
    lines += [f"{k},{lo},{hi},{size}" for k, (lo, hi, size) in enumerate(out) if size > 0 and hi > lo]
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    if len(sys.argv) not in (3, 4) or sys.argv[3:] not in ([], ["KV=end"], ["KV=batch"], ["TRAIN"]):
        sys.exit(__doc__)
    with open(sys.argv[1]) as f:
        config = json.load(f)
    if sys.argv[3:] == ["TRAIN"]:
        sys.stdout.write(train(config, int(sys.argv[2])))
    else:
        sys.stdout.write(trace(config, int(sys.argv[2]), sys.argv[3:] != ["KV=batch"]))
