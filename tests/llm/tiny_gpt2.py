"""A tiny randomly initialised GPT-2 and word-level tokenizer, built and saved offline."""

from __future__ import annotations

from pathlib import Path

WORDS = ("the a model data test result evidence forecast value study method code sentence "
         "paper shows improves accuracy on with of and to is are we our").split()
PUNCTUATION = list(":.,{}\"")
#: context length: room for a debate prompt (about 2,000 word-level tokens) and its answer
CONTEXT = 4096


def build_tiny_gpt2(folder: Path) -> Path:
    """Save a 1-layer, 32-wide GPT-2 with random weights (seeded) and its tokenizer.

    No chat template and no end-of-sequence token: generation runs until ``max_new_tokens``
    or a stopping criterion ends it.
    """
    import torch
    from tokenizers import Tokenizer, models, pre_tokenizers
    from transformers import GPT2Config, GPT2LMHeadModel, PreTrainedTokenizerFast

    vocab = {"[UNK]": 0, "[PAD]": 1,
             **{w: i + 2 for i, w in enumerate([*WORDS, *PUNCTUATION])}}
    raw = Tokenizer(models.WordLevel(vocab=vocab, unk_token="[UNK]"))
    raw.pre_tokenizer = pre_tokenizers.Whitespace()
    tokenizer = PreTrainedTokenizerFast(tokenizer_object=raw, unk_token="[UNK]",
                                        pad_token="[PAD]")
    tokenizer.save_pretrained(folder)
    torch.manual_seed(0)
    config = GPT2Config(vocab_size=len(vocab), n_positions=CONTEXT, n_embd=32, n_layer=1,
                        n_head=2, bos_token_id=None, eos_token_id=None, pad_token_id=1)
    model = GPT2LMHeadModel(config)
    model.generation_config.eos_token_id = None
    model.save_pretrained(folder)
    return folder
