#!/usr/bin/python3
"""Cross-checks lynxsim's tokenizers and forward passes (SmolLM2, Gemma 3) against Hugging Face.

Both sides load the same GGUF file (scripts/fetch_model.sh). transformers dequantizes the GGUF
weights to float32 and runs its own Llama implementation on the CPU, so it is an independent
implementation of everything lynxsim does in C++ (GGUF reading, dequantization, tokenizer,
forward pass).

Everything comes from PyPI (the GGUF file too), so no access to huggingface.co is needed.
Requirements (in a throwaway virtual environment, never in the project's setup), run as
/tmp/hfenv/bin/python scripts/hf_crosscheck.py ...:
    /usr/bin/python3 -m venv /tmp/hfenv
    /tmp/hfenv/bin/pip install gguf tokenizers                     # tokens --bare, multilingual
    /tmp/hfenv/bin/pip install torch transformers accelerate numpy # tokens, logits

Subcommands:
    tokens  --out tests/fixtures/llm/tokens.json [--bare]
        Encodes a fixed list of strings (CASES, multilingual ones included) with the transformers
        tokenizer built from the GGUF, or with --bare with the Hugging Face `tokenizers` library
        directly (the engine transformers uses; no torch needed), and writes the ids (the fixture
        of tests/llm/test_real_model.cpp).
    multilingual  --lynxsim-cmd "build/lynxsim llm-logits"
        Encodes MULTILINGUAL with the bare Hugging Face tokenizer and with lynxsim (the token ids
        of the llm-logits output) and lists every text whose ids differ; exit status 1 if any.
    logits  --lynxsim-cmd "build/lynxsim llm-logits" [--prompt TEXT] [--fixture PATH]
        Runs the prompt through transformers and through lynxsim (the command is called with
        --model PATH --prompt TEXT --out FILE and must write the two-line text format of
        sim/llm/prompt_logits.hpp), and prints the largest difference of the next-token logits.
        --fixture writes the prompt, its ids and transformers' top logits as a test fixture.
    gemma  --lynxsim-cmd "build/lynxsim llm-logits" [--text data/texts/vim_user_manual.txt]
        Gemma 3 270M (scripts/fetch_model.sh gemma3-270m): for the CASES prompts and three
        prefixes of the text (about 300, 1,100 and 2,000 tokens, beyond the 512-token sliding
        window), compares the token ids of transformers' GGUF tokenizer (BOS added) with
        lynxsim's, then feeds lynxsim's ids to transformers' Gemma3ForCausalLM (float32) and
        prints per prompt the largest |logit difference| of the next-token logits and whether
        the argmax agrees; exit status 1 when any difference exceeds --tolerance (default 1e-2)
        or an argmax differs.
"""
import argparse
import glob
import json
import os
import shlex
import subprocess
import sys
import tempfile

CASES = [
    "Hello world",
    "Hello, world! How are you today?",
    "The quick brown fox jumps over the lazy dog.",
    "it's  a   test\n\nnew line",
    "I'm sure they'll say we've done what you'd expect, isn't it?",
    "In 2024, the population was 1,234,567 (up 3.5%).",
    "    indented code\n\tand a tab",
    "def add(a, b):\n    return a + b  # sum\n",
    "for (int i = 0; i < n; ++i) { x[i] *= 2; }",
    "email: someone@example.com, url: https://example.org/path?q=1&r=2",
    "Caf\u00e9, na\u00efve, r\u00e9sum\u00e9, fa\u00e7ade, \u00fcber, Stra\u00dfe",
    "\u041f\u0440\u0438\u0432\u0435\u0442, \u043c\u0438\u0440! \u039a\u03b1\u03bb\u03b7\u03bc\u03ad\u03c1\u03b1",
    "\u4f60\u597d\uff0c\u4e16\u754c\u3002\u3053\u3093\u306b\u3061\u306f",
    "Emoji: \U0001f642\U0001f680 and symbols \u2014 \u2026 \u201cquoted\u201d \u20ac5",
    "UPPER lower MiXeD CaSe",
    "multiple   spaces   between   words   ",
    "trailing newline\n",
    "\n\n\nleading newlines",
    "<|im_start|>user\nWhat is 2+2?<|im_end|>\n<|im_start|>assistant\n",
    "Numbers: 0 1 12 123 3.14159 -42 1e10",
    "Don't stop; keep going... (really) [yes] {ok} <tag/>",
    "a\u00a0non-breaking space and a\u3000wide one",
    "x\u00b2 + y\u00b3 = \u00bd",
    "   ",
    "The river starts high in the mountains, where snow melts each spring.",
]

MULTILINGUAL = [
    "\u4f60\u597d\uff0c\u4e16\u754c\u3002\u4eca\u5929\u5929\u6c14\u5f88\u597d\uff01",
    "\u039a\u03b1\u03bb\u03b7\u03bc\u03ad\u03c1\u03b1 \u03ba\u03cc\u03c3\u03bc\u03b5, \u03c4\u03b9 \u03ba\u03ac\u03bd\u03b5\u03b9\u03c2;",
    "na\u00efve cafe\u0301s, \u00e0 la cr\u00e8me br\u00fbl\u00e9e; \u0141\u00f3d\u017a, \u0160koda",
    "\u0928\u092e\u0938\u094d\u0924\u0947 \u0926\u0941\u0928\u093f\u092f\u093e",
    "\u0645\u0631\u062d\u0628\u0627 \u0628\u0627\u0644\u0639\u0627\u0644\u0645 \u0661\u0662\u0663",
    "\uc548\ub155\ud558\uc138\uc694 \uc138\uacc4",
    "\u0e2a\u0e27\u0e31\u0e2a\u0e14\u0e35\u0e04\u0e23\u0e31\u0e1a",
    "hi \U0001f44b\U0001f3fd! ok \U0001f469\u200d\U0001f4bb \U0001f1eb\U0001f1f7",
    "x12\uff11\uff12\u00b3\u0663 \u2167 \u00bd",
    "they'll DON'T we'RE I'd",
    "a\u00a0b\u3000c\u2009d\te",
]
CASES += MULTILINGUAL


def find_model(path, name="smollm2-135m"):
    if path:
        return path
    cache = os.path.expanduser("~/.cache/lynxsim")
    found = sorted(glob.glob(os.path.join(cache, "models", name, "*.gguf")))
    if not found:
        sys.exit("%s GGUF model not found; run scripts/fetch_model.sh %s" % (name, name))
    return found[0]


def load_tokenizer(model_path):
    """transformers' tokenizer from the GGUF vocabulary and merges, with SmolLM2's pre-tokenizer.

    transformers' GGUF converter builds a plain GPT-2 ByteLevel pre-tokenizer; SmolLM2's own
    tokenizer.json (and llama.cpp's "smollm" pre-tokenizer type recorded in the GGUF) first
    isolates every numeric character (Digits with individual_digits). That step is restored here
    so the fixture reflects the model's real tokenizer; it changes only texts where a numeric
    character other than 0-9 follows a space (e.g. " \u00bd").
    """
    from tokenizers import pre_tokenizers
    from transformers import AutoTokenizer
    tok = AutoTokenizer.from_pretrained(os.path.dirname(model_path),
                                        gguf_file=os.path.basename(model_path))
    tok.backend_tokenizer.pre_tokenizer = pre_tokenizers.Sequence([
        pre_tokenizers.Digits(individual_digits=True),
        pre_tokenizers.ByteLevel(add_prefix_space=False, trim_offsets=True, use_regex=True),
    ])
    return tok


def load_bare_tokenizer(model_path):
    """The Hugging Face `tokenizers` BPE from the GGUF vocabulary and merges, with SmolLM2's
    pre-tokenizer (Digits(individual_digits) then ByteLevel) and its control tokens."""
    import gguf
    from tokenizers import AddedToken, Tokenizer, decoders, models, pre_tokenizers

    reader = gguf.GGUFReader(model_path)

    def strings(key):
        field = reader.fields[key]
        return [bytes(field.parts[i]).decode("utf-8") for i in field.data]

    tokens = strings("tokenizer.ggml.tokens")
    field = reader.fields["tokenizer.ggml.token_type"]
    types = [int(field.parts[i][0]) for i in field.data]
    merges = [tuple(m.split(" ", 1)) for m in strings("tokenizer.ggml.merges")]
    tok = Tokenizer(models.BPE({t: i for i, t in enumerate(tokens)}, merges))
    tok.pre_tokenizer = pre_tokenizers.Sequence([
        pre_tokenizers.Digits(individual_digits=True),
        pre_tokenizers.ByteLevel(add_prefix_space=False, trim_offsets=True, use_regex=True),
    ])
    tok.decoder = decoders.ByteLevel()
    tok.add_special_tokens([AddedToken(t, special=True) for t, k in zip(tokens, types) if k == 3])
    return lambda text: tok.encode(text, add_special_tokens=False).ids


def cmd_tokens(args):
    model_path = find_model(args.model)
    if args.bare:
        encode = load_bare_tokenizer(model_path)
        source = "tokenizers BPE from %s + Digits and ByteLevel pre-tokenizers" % (
            os.path.basename(model_path))
    else:
        tok = load_tokenizer(model_path)
        encode = lambda text: tok.encode(text, add_special_tokens=False)  # noqa: E731
        source = ("transformers AutoTokenizer.from_pretrained(gguf_file=%s) + Digits "
                  "pre-tokenizer, add_special_tokens=False" % os.path.basename(model_path))
    cases = [{"text": text, "ids": encode(text)} for text in CASES]
    with open(args.out, "w", encoding="utf-8") as f:
        f.write('{"source": %s,\n "cases": [\n' % json.dumps(source))
        f.write(",\n".join("  " + json.dumps(c, ensure_ascii=False) for c in cases))
        f.write("\n ]}\n")
    print("wrote %d cases to %s" % (len(cases), args.out))


def hf_logits(model_path, ids):
    import torch
    from transformers import AutoModelForCausalLM
    model = AutoModelForCausalLM.from_pretrained(
        os.path.dirname(model_path), gguf_file=os.path.basename(model_path),
        dtype=torch.float32)
    model.eval()
    with torch.no_grad():
        out = model(torch.tensor([ids], dtype=torch.long))
    return out.logits[0, -1].double().numpy()


def lynxsim_logits(command, model_path, prompt):
    with tempfile.TemporaryDirectory() as tmp:
        out_path = os.path.join(tmp, "logits.txt")
        argv = shlex.split(command) + ["--model", model_path, "--prompt", prompt, "--out", out_path]
        subprocess.run(argv, check=True)
        with open(out_path, encoding="utf-8") as f:
            tokens = f.readline().split()
            logits = f.readline().split()
    if tokens[0] != "tokens" or logits[0] != "logits":
        sys.exit("unexpected output format from the lynxsim command")
    return [int(t) for t in tokens[2:]], [float(v) for v in logits[2:]]


def cmd_multilingual(args):
    model_path = find_model(args.model)
    encode = load_bare_tokenizer(model_path)
    differ = 0
    for text in MULTILINGUAL:
        hf_ids = encode(text)
        with tempfile.TemporaryDirectory() as tmp:
            out_path = os.path.join(tmp, "logits.txt")
            argv = shlex.split(args.lynxsim_cmd) + ["--model", model_path, "--prompt", text,
                                                   "--out", out_path]
            subprocess.run(argv, check=True, stdout=subprocess.DEVNULL)
            with open(out_path, encoding="utf-8") as f:
                lx_ids = [int(t) for t in f.readline().split()[2:]]
        same = lx_ids == hf_ids
        differ += not same
        print("%s %3d tokens  %r" % ("same  " if same else "DIFFER", len(hf_ids), text))
        if not same:
            print("  tokenizers %s\n  lynxsim    %s" % (hf_ids, lx_ids))
    print("%d of %d texts encode to the same ids" % (len(MULTILINGUAL) - differ, len(MULTILINGUAL)))
    return 1 if differ else 0


def cmd_logits(args):
    import numpy as np
    model_path = find_model(args.model)
    tok = load_tokenizer(model_path)
    hf_ids = tok.encode(args.prompt, add_special_tokens=False)
    lx_ids, lx = lynxsim_logits(args.lynxsim_cmd, model_path, args.prompt)
    if lx_ids != hf_ids:
        sys.exit("token ids differ:\n  transformers %s\n  lynxsim      %s" % (hf_ids, lx_ids))
    hf = hf_logits(model_path, hf_ids)
    lx = np.array(lx)
    diff = np.abs(hf - lx)
    top_hf = np.argsort(-hf)[:10]
    print("prompt tokens:           %d" % len(hf_ids))
    print("max |logit difference|:  %.6g (at id %d)" % (diff.max(), int(diff.argmax())))
    print("mean |logit difference|: %.6g" % diff.mean())
    print("logit range:             [%.3f, %.3f]" % (hf.min(), hf.max()))
    print("argmax: transformers %d, lynxsim %d" % (int(hf.argmax()), int(lx.argmax())))
    print("top-10 transformers: %s" % [int(i) for i in top_hf])
    print("top-10 lynxsim:      %s" % [int(i) for i in np.argsort(-lx)[:10]])
    if args.fixture:
        fixture = {"source": "transformers %s float32 CPU" % os.path.basename(model_path),
                   "prompt": args.prompt, "tokens": hf_ids,
                   "top": [[int(i), round(float(hf[i]), 5)] for i in top_hf]}
        with open(args.fixture, "w", encoding="utf-8") as f:
            json.dump(fixture, f, ensure_ascii=False, indent=1)
            f.write("\n")
    return 0 if diff.max() < args.tolerance else 1


def cmd_gemma(args):
    import numpy as np
    import torch
    from transformers import AutoModelForCausalLM, AutoTokenizer
    model_path = find_model(args.model, "gemma3-270m")
    where, name = os.path.dirname(model_path), os.path.basename(model_path)
    tok = AutoTokenizer.from_pretrained(where, gguf_file=name)
    model = AutoModelForCausalLM.from_pretrained(where, gguf_file=name, dtype=torch.float32)
    model.eval()
    with open(args.text, encoding="utf-8") as f:
        text = f.read()
    prompts = [c for c in CASES if "<|im_start|>" not in c]
    prompts += [text[:1200], text[:4000], text[:7000]]
    worst, argmax_differ, ids_differ = 0.0, 0, 0
    for prompt in prompts:
        hf_ids = tok(prompt).input_ids
        lx_ids, lx = lynxsim_logits(args.lynxsim_cmd, model_path, prompt)
        ids_differ += lx_ids != hf_ids
        with torch.no_grad():
            hf = model(torch.tensor([lx_ids], dtype=torch.long)).logits[0, -1].double().numpy()
        lx = np.array(lx)
        diff = float(np.abs(hf - lx).max())
        worst = max(worst, diff)
        same = int(hf.argmax()) == int(lx.argmax())
        argmax_differ += not same
        print("%5d tokens  ids %s  max |diff| %.3g  argmax %s  %r" % (
            len(lx_ids), "same" if lx_ids == hf_ids else "DIFFER", diff,
            "same" if same else "DIFFER", prompt[:40]))
    print("%d prompts: max |logit difference| %.4g, argmax agreement %d/%d, token ids equal %d/%d"
          % (len(prompts), worst, len(prompts) - argmax_differ, len(prompts),
             len(prompts) - ids_differ, len(prompts)))
    return 0 if worst < args.tolerance and argmax_differ == 0 else 1


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--model", help="GGUF path (default: the fetch_model.sh cache)")
    sub = parser.add_subparsers(dest="command", required=True)
    tokens = sub.add_parser("tokens")
    tokens.add_argument("--out", required=True)
    tokens.add_argument("--bare", action="store_true", help="the tokenizers library alone")
    multilingual = sub.add_parser("multilingual")
    multilingual.add_argument("--lynxsim-cmd", required=True)
    logits = sub.add_parser("logits")
    logits.add_argument("--lynxsim-cmd", required=True)
    logits.add_argument("--prompt", default="<|im_start|>user\nWhat is the capital of France?"
                                            "<|im_end|>\n<|im_start|>assistant\n")
    logits.add_argument("--fixture")
    logits.add_argument("--tolerance", type=float, default=1e-2)
    gemma = sub.add_parser("gemma")
    gemma.add_argument("--lynxsim-cmd", required=True)
    gemma.add_argument("--text", default=os.path.join(os.path.dirname(__file__), "..", "data",
                                                      "texts", "vim_user_manual.txt"))
    gemma.add_argument("--tolerance", type=float, default=1e-2)
    args = parser.parse_args()
    commands = {"tokens": cmd_tokens, "multilingual": cmd_multilingual, "logits": cmd_logits,
                "gemma": cmd_gemma}
    return commands[args.command](args)


if __name__ == "__main__":
    sys.exit(main())
