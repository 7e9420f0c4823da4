"""PyTorch CNN template: TextCNN (Kim 2014) for text, a small ConvNet for images and vectors.

Text: word-level tokens, a vocabulary from the training split, an embedding layer, parallel
1-D convolutions with the plan's filter sizes (default 3, 4, 5; 100 maps each), max-over-time
pooling, dropout and a linear classifier -- the seed's TextCNN plan. Images (square feature
vectors such as 8x8 digits or 28x28 MNIST): two 3x3 conv blocks and a linear head. Other
vectors: a 1-D ConvNet over the standardised features. CPU only, seeded, Adam/AdamW/SGD/
Adadelta/Adagrad/RMSprop.
"""

from __future__ import annotations

from repro_assets.papers.notebook.templates.base import NotebookTemplate

TORCH_CNN = NotebookTemplate(
    name="pytorch_cnn",
    title="convolutional neural network (PyTorch)",
    framework="pytorch",
    architectures=("cnn", "rnn", "transformer"),
    tasks=("classification", "regression"),
    model_markdown="""\
## 3. Model: convolutional network (PyTorch, CPU)
Text inputs use a **TextCNN**: embeddings, parallel 1-D convolutions (`filter_sizes`,
`num_filters`), max-over-time pooling, dropout, linear layer. Square image vectors use a small
2-D ConvNet; other vectors a 1-D ConvNet. Optimizer, learning rate, batch size, weight decay
and dropout come from the plan's config.""",
    model_code="""\
import re
from collections import Counter

import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(seed)
torch.set_num_threads(int(num_threads))
device = torch.device("cpu")
lr = float(learning_rate) if learning_rate else 0.001
bs = int(batch_size) if batch_size else 64
drop = float(dropout) if dropout is not None else 0.5
out_dim = n_classes if task == "classification" else 1

if modality == "text":
    max_len = max(8, hp_int("max_len", 64))
    vocab_size = max(100, hp_int("max_vocab", 20000))
    embed_dim = max(8, hp_int("embedding_dim", 128))
    filter_sizes = [min(k, max_len) for k in hp_int_list("filter_sizes", [3, 4, 5])]
    num_filters = max(1, hp_int("num_filters", 100))

    def tokenize(text):
        return re.findall(r"[a-z0-9']+", str(text).lower())

    counts = Counter(tok for text in X_train for tok in tokenize(text))
    vocab = {word: i + 2 for i, (word, _) in enumerate(counts.most_common(vocab_size))}

    def encode(texts):
        ids = np.zeros((len(texts), max_len), dtype=np.int64)  # 0 = padding, 1 = unknown
        for row, text in enumerate(texts):
            tokens = [vocab.get(tok, 1) for tok in tokenize(text)][:max_len]
            ids[row, : len(tokens)] = tokens
        return torch.from_numpy(ids)

    class TextCNN(nn.Module):
        def __init__(self):
            super().__init__()
            self.embedding = nn.Embedding(len(vocab) + 2, embed_dim, padding_idx=0)
            self.convs = nn.ModuleList(nn.Conv1d(embed_dim, num_filters, k) for k in filter_sizes)
            self.dropout = nn.Dropout(drop)
            self.fc = nn.Linear(num_filters * len(filter_sizes), out_dim)

        def forward(self, x):
            emb = self.embedding(x).transpose(1, 2)
            pooled = [torch.relu(conv(emb)).max(dim=2).values for conv in self.convs]
            return self.fc(self.dropout(torch.cat(pooled, dim=1)))

    Xtr_t, Xte_t = encode(X_train), encode(X_test)
    model = TextCNN()
else:
    mean = X_train.mean(axis=0)
    std = X_train.std(axis=0) + 1e-6
    n_feat = X_train.shape[1]
    side1, side3 = math.isqrt(n_feat), math.isqrt(n_feat // 3)
    if modality == "image" and side1 * side1 == n_feat and side1 >= 4:
        channels, side = 1, side1
    elif modality == "image" and side3 * side3 * 3 == n_feat and side3 >= 4:
        channels, side = 3, side3  # channel-last pixels (H, W, 3)
    else:
        channels, side = 1, 0
    square = side > 0
    conv_channels = (hp_int_list("conv_channels", [16, 32]) + [32, 32])[:2]

    def to_tensor(X):
        x = torch.from_numpy(((np.asarray(X, dtype=np.float32) - mean) / std).astype(np.float32))
        if square:
            return x.reshape(-1, side, side, channels).permute(0, 3, 1, 2).contiguous()
        return x.reshape(-1, 1, n_feat)

    conv = nn.Conv2d if square else nn.Conv1d
    pool = nn.AdaptiveMaxPool2d(2) if square else nn.AdaptiveMaxPool1d(4)
    flat = conv_channels[1] * 4  # 2x2 (images) or 4 (vectors) pooled positions
    model = nn.Sequential(
        conv(channels if square else 1, conv_channels[0], 3, padding=1), nn.ReLU(),
        conv(conv_channels[0], conv_channels[1], 3, padding=1), nn.ReLU(),
        pool, nn.Flatten(), nn.Dropout(drop), nn.Linear(flat, out_dim))
    Xtr_t, Xte_t = to_tensor(X_train), to_tensor(X_test)

if task == "classification":
    ytr_t = torch.from_numpy(np.asarray(y_train, dtype=np.int64))
    yte_t = torch.from_numpy(np.asarray(y_test, dtype=np.int64))
    loss_fn = nn.CrossEntropyLoss()
else:
    ytr_t = torch.from_numpy(np.asarray(y_train, dtype=np.float32)).reshape(-1, 1)
    yte_t = torch.from_numpy(np.asarray(y_test, dtype=np.float32)).reshape(-1, 1)
    loss_fn = nn.MSELoss()
decay = float(weight_decay) if weight_decay else 0.0
opt_name = (optimizer or "adam").lower()
if opt_name == "sgd":
    opt = torch.optim.SGD(model.parameters(), lr=lr, momentum=0.9, weight_decay=decay)
elif opt_name == "adamw":
    opt = torch.optim.AdamW(model.parameters(), lr=lr, weight_decay=decay)
elif opt_name == "adadelta":  # its usual learning rate is 1.0
    opt = torch.optim.Adadelta(model.parameters(), lr=float(learning_rate or 1.0),
                               weight_decay=decay)
elif opt_name == "adagrad":
    opt = torch.optim.Adagrad(model.parameters(), lr=lr, weight_decay=decay)
elif opt_name == "rmsprop":
    opt = torch.optim.RMSprop(model.parameters(), lr=lr, weight_decay=decay)
else:
    if opt_name not in ("adam",):
        _note(f"optimizer {optimizer!r} is not supported; using adam")
    opt = torch.optim.Adam(model.parameters(), lr=lr, weight_decay=decay)
model.to(device)
print(model)
print("parameters:", sum(p.numel() for p in model.parameters()))""",
    train_code="""\
loader = DataLoader(TensorDataset(Xtr_t, ytr_t), batch_size=bs, shuffle=True,
                    generator=torch.Generator().manual_seed(seed))


def forward_all(X, y=None):
    model.eval()
    outputs, total = [], 0.0
    with torch.no_grad():
        for start in range(0, len(X), 1024):
            out = model(X[start:start + 1024])
            outputs.append(out)
            if y is not None:
                total += float(loss_fn(out, y[start:start + 1024])) * len(out)
    out = torch.cat(outputs) if outputs else torch.empty(0, out_dim)
    return out, (total / max(1, len(X)) if y is not None else None)


def to_labels(out):
    return out.argmax(dim=1).numpy() if task == "classification" else out.reshape(-1).numpy()


for epoch in range(1, epochs + 1):
    model.train()
    running, seen = 0.0, 0
    for xb, yb in loader:
        opt.zero_grad()
        loss = loss_fn(model(xb), yb)
        loss.backward()
        opt.step()
        running += float(loss) * len(xb)
        seen += len(xb)
    train_out, _ = forward_all(Xtr_t)
    test_out, test_loss = forward_all(Xte_t, yte_t)
    log_epoch(epoch, train_loss=running / max(1, seen), test_loss=test_loss,
              train_score=curve_score(y_train, to_labels(train_out)),
              test_score=curve_score(y_test, to_labels(test_out)))


def predict_labels(X):
    return to_labels(forward_all(X)[0])


def predict_scores(X):
    if task != "classification":
        return None
    return torch.softmax(forward_all(X)[0], dim=1).numpy()


X_eval = Xte_t""",
    kid_words="convolutional neural network (it slides little pattern-finders over the input, "
    "like looking at a picture or a sentence through a small window)",
    default_hyperparameters={"filter_sizes": [3, 4, 5], "num_filters": 100, "max_len": 64},
    requires=("torch",),
    preprocess="none",
)
