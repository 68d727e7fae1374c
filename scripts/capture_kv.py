#!/usr/bin/python3
"""Dump the KV cache and sample queries of a Hugging Face transformers model for lynxsim.

Runs one forward pass of a causal language model over the text of a prompt file and writes, per
layer l, the tensors lynxsim's accuracy layer reads (docs/accuracy.md, "KV file layout"):

    k.{l}  [kv_heads, tokens, head_dim]   keys after RoPE, as the model's KV cache holds them
    v.{l}  [kv_heads, tokens, head_dim]   values
    q.{l}  [heads, n_queries, head_dim]   queries after RoPE of the last n_queries prompt positions

into one .safetensors file (default) or a directory of k_{l}.npy / v_{l}.npy / q_{l}.npy files
(--format npy; BF16 is stored as raw uint16 bits there, descr '<u2', because NumPy has no bfloat16).
Queries are captured with forward hooks on each attention block's q_proj and rotated with the
model's own rotary embedding, so they match the keys. Llama-architecture models (Llama, Mistral,
Qwen2, SmolLM) are supported; others may need a different hook.

Needs: torch, transformers, safetensors (pip, in a virtual environment). Not run in CI.
Example:
    python scripts/capture_kv.py --model HuggingFaceTB/SmolLM2-135M-Instruct \\
        --prompt prompt.txt --out smollm2_kv.safetensors --queries 32
then: lynxsim accuracy --model smollm2-135m --context <tokens> --kv-file smollm2_kv.safetensors
"""

import argparse
import os
import sys


def parse_args():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--model", required=True, help="Hugging Face model id or local path")
    parser.add_argument("--gguf-file", default=None,
                        help="load this GGUF file (e.g. scripts/fetch_model.sh's) instead of safetensors weights;"
                             " --model is then the folder that holds it")
    parser.add_argument("--prompt", required=True, help="UTF-8 text file with the prompt")
    parser.add_argument("--out", required=True, help="output .safetensors file or .npy directory")
    parser.add_argument("--format", choices=["safetensors", "npy"], default="safetensors")
    parser.add_argument("--dtype", choices=["bf16", "fp16", "fp32"], default="bf16")
    parser.add_argument("--queries", type=int, default=32,
                        help="number of last positions whose queries are kept (0: no q tensors; needed for"
                             " models whose queries are not Llama's, e.g. Gemma 3 with QK-norm)")
    parser.add_argument("--max-tokens", type=int, default=0, help="truncate the prompt to this many tokens (0 = all)")
    parser.add_argument("--device", default="cpu")
    return parser.parse_args()


def torch_dtype(torch, name):
    return {"bf16": torch.bfloat16, "fp16": torch.float16, "fp32": torch.float32}[name]


def tokenize(tokenizer, path, max_tokens):
    with open(path, encoding="utf-8") as handle:
        text = handle.read()
    ids = tokenizer(text, return_tensors="pt").input_ids
    if max_tokens > 0:
        ids = ids[:, :max_tokens]
    if ids.shape[1] < 2:
        sys.exit("capture_kv: the prompt must have at least 2 tokens")
    return ids


def hook_queries(model, store):
    handles = []
    for index, layer in enumerate(model.model.layers):
        def hook(_module, _inputs, output, index=index):
            store[index] = output.detach()
        handles.append(layer.self_attn.q_proj.register_forward_hook(hook))
    return handles


def rotate_queries(torch, model, raw, positions, num_heads, head_dim):
    from transformers.models.llama.modeling_llama import apply_rotary_pos_emb

    batch, tokens, _ = raw.shape
    q = raw.view(batch, tokens, num_heads, head_dim).transpose(1, 2)
    cos, sin = model.model.rotary_emb(q, positions)
    q_rot, _ = apply_rotary_pos_emb(q, q, cos, sin)
    return q_rot[0]


def full_cache():
    """A cache that keeps every token of every layer. A cache built from the model's config keeps
    only the last sliding_window tokens of sliding-window layers (Gemma 3); the attention mask still
    follows the config, so the model's outputs are unchanged and every layer's tensor has all tokens."""
    from transformers import DynamicCache

    return DynamicCache()


def kv_of(cache, layer):
    if hasattr(cache, "layers"):
        return cache.layers[layer].keys[0], cache.layers[layer].values[0]
    if hasattr(cache, "key_cache"):
        return cache.key_cache[layer][0], cache.value_cache[layer][0]
    return cache[layer][0][0], cache[layer][1][0]


def capture(args):
    import torch
    from transformers import AutoModelForCausalLM, AutoTokenizer

    dtype = torch_dtype(torch, args.dtype)
    extra = {"gguf_file": args.gguf_file} if args.gguf_file else {}
    tokenizer = AutoTokenizer.from_pretrained(args.model, **extra)
    model = AutoModelForCausalLM.from_pretrained(args.model, dtype=dtype, **extra).to(args.device).eval()
    config = model.config
    num_heads = config.num_attention_heads
    head_dim = getattr(config, "head_dim", None) or config.hidden_size // num_heads
    ids = tokenize(tokenizer, args.prompt, args.max_tokens).to(args.device)
    tokens = ids.shape[1]
    n_queries = min(args.queries, tokens)
    raw_queries = {}
    handles = hook_queries(model, raw_queries) if n_queries > 0 else []
    with torch.no_grad():
        output = model(ids, use_cache=True, past_key_values=full_cache())
    for handle in handles:
        handle.remove()
    positions = torch.arange(tokens, device=args.device).unsqueeze(0)
    tensors = {}
    for layer in range(config.num_hidden_layers):
        k, v = kv_of(output.past_key_values, layer)
        tensors[f"k.{layer}"] = k.to(dtype).contiguous().cpu()
        tensors[f"v.{layer}"] = v.to(dtype).contiguous().cpu()
        if n_queries == 0:
            continue
        with torch.no_grad():
            q = rotate_queries(torch, model, raw_queries[layer], positions, num_heads, head_dim)
        tensors[f"q.{layer}"] = q[:, tokens - n_queries:, :].to(dtype).contiguous().cpu()
    return tensors, tokens


def write_npy(directory, tensors):
    import numpy as np
    import torch

    os.makedirs(directory, exist_ok=True)
    for name, tensor in tensors.items():
        kind, layer = name.split(".")
        if tensor.dtype == torch.bfloat16:
            array = tensor.view(torch.int16).numpy().view(np.uint16)
        else:
            array = tensor.numpy()
        np.save(os.path.join(directory, f"{kind}_{layer}.npy"), array)


def main():
    args = parse_args()
    tensors, tokens = capture(args)
    if args.format == "npy":
        write_npy(args.out, tensors)
    else:
        from safetensors.torch import save_file

        save_file(tensors, args.out, metadata={"model": args.model, "tokens": str(tokens)})
    print(f"capture_kv: wrote {len(tensors)} tensors for {tokens} tokens to {args.out}")


if __name__ == "__main__":
    main()
