"""scikit-learn templates: logistic regression, linear SVM, random forest, gradient boosting, MLP.

Each keeps the estimator the paper names and exposes a real training loop: iterative solvers
continue from their previous state (``warm_start``/``partial_fit``), ensembles grow by a share
of their trees per epoch, and liblinear (not incremental) refits with a growing iteration
budget. The final model equals the one a single ``fit`` with the plan's settings produces.
"""

from __future__ import annotations

from repro_assets.papers.notebook.templates.base import NotebookTemplate

_PREDICT_CLASSIFIER = """

def predict_labels(X):
    return model.predict(X)


def predict_scores(X):
    if task == "classification" and hasattr(model, "predict_proba"):
        return model.predict_proba(X)
    return None


X_eval = Xte"""

_LOSSES = """\
from sklearn.metrics import log_loss, mean_squared_error


def proba_loss(X, y):
    if task == "classification":
        return log_loss(y, model.predict_proba(X), labels=list(range(n_classes)))
    return mean_squared_error(y, model.predict(X))

"""

LOGISTIC_REGRESSION = NotebookTemplate(
    name="sklearn_logistic_regression",
    title="logistic regression",
    framework="sklearn",
    architectures=("logistic_regression",),
    tasks=("classification", "regression"),
    model_markdown="""\
## 3. Model: logistic regression
L2-regularised logistic regression (`C` from the plan, else `1/weight_decay`, else 1.0) with
the lbfgs solver. For a regression task the linear least-squares counterpart
(`SGDRegressor`) is used instead.""",
    model_code="""\
from sklearn.exceptions import ConvergenceWarning
from sklearn.linear_model import LogisticRegression, SGDRegressor

C = hp_float("C", 1.0 / float(weight_decay) if weight_decay else 1.0)
total_iter = hp_int("max_iter", 100)
iters_per_epoch = max(1, math.ceil(total_iter / epochs))
if task == "classification":
    model = LogisticRegression(C=C, max_iter=iters_per_epoch, warm_start=True, solver="lbfgs",
                               random_state=seed)
else:
    model = SGDRegressor(loss="squared_error", alpha=1.0 / (C * max(1, len(y_train))),
                         random_state=seed)
print(model)""",
    train_code=_LOSSES + """\
for epoch in range(1, epochs + 1):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        if task == "classification":
            model.fit(Xtr, y_train)  # warm start: continues from the previous epoch
        else:
            order = rng.permutation(len(y_train))
            model.partial_fit(Xtr[order], y_train[order])
    log_epoch(epoch, train_loss=proba_loss(Xtr, y_train), test_loss=proba_loss(Xte, y_test),
              train_score=curve_score(y_train, model.predict(Xtr)),
              test_score=curve_score(y_test, model.predict(Xte)))""" + _PREDICT_CLASSIFIER,
    kid_words="logistic regression (it learns how much each clue counts, then adds them up)",
    default_hyperparameters={"C": 1.0, "max_iter": 100},
)

LINEAR_SVM = NotebookTemplate(
    name="sklearn_linear_svm",
    title="linear SVM",
    framework="sklearn",
    architectures=("linear_svm",),
    tasks=("classification", "regression"),
    model_markdown="""\
## 3. Model: linear support vector machine
`LinearSVC` (hinge loss, L2 penalty, `C` from the plan, else 1.0). liblinear is not
incremental, so each epoch refits with a larger share of the iteration budget (`max_iter`);
the curves show the solver converging. Regression uses `LinearSVR`.""",
    model_code="""\
from sklearn.exceptions import ConvergenceWarning
from sklearn.svm import LinearSVC, LinearSVR

C = hp_float("C", 1.0 / float(weight_decay) if weight_decay else 1.0)
total_iter = hp_int("max_iter", 1000)
loss_name = hp_str("loss", "squared_hinge")
if loss_name not in ("hinge", "squared_hinge"):
    _note(f"unknown SVM loss {loss_name!r}; using squared_hinge")
    loss_name = "squared_hinge"


def make_model(max_iter):
    if task == "classification":
        return LinearSVC(C=C, loss=loss_name, max_iter=max_iter, random_state=seed)
    return LinearSVR(C=C, max_iter=max_iter, random_state=seed)


model = make_model(total_iter)
print(model)""",
    train_code="""\
from sklearn.metrics import hinge_loss, mean_squared_error


def svm_loss(X, y):
    if task == "classification":
        return hinge_loss(y, model.decision_function(X), labels=list(range(n_classes)))
    return mean_squared_error(y, model.predict(X))


for epoch in range(1, epochs + 1):
    model = make_model(max(1, math.ceil(total_iter * epoch / epochs)))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        model.fit(Xtr, y_train)
    log_epoch(epoch, train_loss=svm_loss(Xtr, y_train), test_loss=svm_loss(Xte, y_test),
              train_score=curve_score(y_train, model.predict(Xtr)),
              test_score=curve_score(y_test, model.predict(Xte)))


def predict_labels(X):
    return model.predict(X)


def predict_scores(X):
    if task != "classification":
        return None
    scores = model.decision_function(X)
    if scores.ndim == 1:
        scores = np.column_stack([-scores, scores])
    exp = np.exp(scores - scores.max(axis=1, keepdims=True))
    return exp / exp.sum(axis=1, keepdims=True)  # softmax of margins: enough for ranking (AUC)


X_eval = Xte""",
    kid_words="linear SVM (it draws the widest possible straight road between the groups)",
    default_hyperparameters={"C": 1.0, "max_iter": 1000},
)

RANDOM_FOREST = NotebookTemplate(
    name="sklearn_random_forest",
    title="random forest",
    framework="sklearn",
    architectures=("random_forest", "decision_tree"),
    tasks=("classification", "regression"),
    model_markdown="""\
## 3. Model: random forest
`RandomForestClassifier`/`Regressor` with `n_estimators` trees (default 100) and optional
`max_depth`. Each epoch adds `n_estimators / epochs` trees (`warm_start`), which gives the
same forest as fitting all trees at once.""",
    model_code="""\
from sklearn.ensemble import RandomForestClassifier, RandomForestRegressor

n_trees = max(1, hp_int("n_estimators", 100))
max_depth = hp_int("max_depth", None)
max_depth = max_depth if max_depth and max_depth > 0 else None
min_leaf = max(1, hp_int("min_samples_leaf", 1))
if architecture == "decision_tree":
    n_trees = 1
    _note("a single tree: random forest template with n_estimators=1 and bootstrap off")
forest = RandomForestClassifier if task == "classification" else RandomForestRegressor
model = forest(n_estimators=1, max_depth=max_depth, min_samples_leaf=min_leaf, warm_start=True,
               bootstrap=architecture != "decision_tree", random_state=seed, n_jobs=1)
print(model)""",
    train_code=_LOSSES + """\
for epoch in range(1, epochs + 1):
    model.set_params(n_estimators=max(1, math.ceil(n_trees * epoch / epochs)))
    model.fit(Xtr, y_train)
    log_epoch(epoch, train_loss=proba_loss(Xtr, y_train), test_loss=proba_loss(Xte, y_test),
              train_score=curve_score(y_train, model.predict(Xtr)),
              test_score=curve_score(y_test, model.predict(Xte)), trees=len(model.estimators_))""" +
    _PREDICT_CLASSIFIER,
    kid_words="random forest (many small decision trees vote, and the majority wins)",
    default_hyperparameters={"n_estimators": 100, "max_depth": None},
    preprocess="raw",
)

GRADIENT_BOOSTING = NotebookTemplate(
    name="sklearn_gradient_boosting",
    title="gradient boosting",
    framework="sklearn",
    architectures=("gradient_boosting",),
    tasks=("classification", "regression"),
    model_markdown="""\
## 3. Model: gradient boosting
`GradientBoostingClassifier`/`Regressor`: `n_estimators` (default 100), `learning_rate`
(plan config or hyperparameter, default 0.1), `max_depth` (default 3). Each epoch adds a share
of the boosting stages (`warm_start`); the result equals a single fit.""",
    model_code="""\
from sklearn.ensemble import GradientBoostingClassifier, GradientBoostingRegressor

n_stages = max(1, hp_int("n_estimators", 100))
gb_rate = hp_float("learning_rate", float(learning_rate) if learning_rate else 0.1)
gb_depth = max(1, hp_int("max_depth", 3))
subsample_rate = min(1.0, max(0.1, hp_float("subsample", 1.0)))
booster = GradientBoostingClassifier if task == "classification" else GradientBoostingRegressor
model = booster(n_estimators=1, learning_rate=gb_rate, max_depth=gb_depth,
                subsample=subsample_rate, warm_start=True, random_state=seed)
print(model)""",
    train_code=_LOSSES + """\
for epoch in range(1, epochs + 1):
    model.set_params(n_estimators=max(1, math.ceil(n_stages * epoch / epochs)))
    model.fit(Xtr, y_train)
    log_epoch(epoch, train_loss=proba_loss(Xtr, y_train), test_loss=proba_loss(Xte, y_test),
              train_score=curve_score(y_train, model.predict(Xtr)),
              test_score=curve_score(y_test, model.predict(Xte)), stages=model.n_estimators_)""" +
    _PREDICT_CLASSIFIER,
    kid_words="gradient boosting (a team of small decision trees where each new tree fixes the "
    "mistakes of the ones before)",
    default_hyperparameters={"n_estimators": 100, "learning_rate": 0.1, "max_depth": 3},
    preprocess="raw",
)

MLP = NotebookTemplate(
    name="sklearn_mlp",
    title="multilayer perceptron",
    framework="sklearn",
    architectures=("mlp",),
    tasks=("classification", "regression"),
    model_markdown="""\
## 3. Model: multilayer perceptron
`MLPClassifier`/`Regressor` with `hidden_layer_sizes` (default 100), ReLU, the plan's
optimizer (adam or sgd), learning rate (default 0.001), batch size (default 32, or all rows
when fewer) and L2 penalty `alpha` (weight decay, default 0.0001). One `partial_fit` pass
over the shuffled training data per epoch.""",
    model_code="""\
from sklearn.neural_network import MLPClassifier, MLPRegressor

hidden = tuple(hp_int_list("hidden_layer_sizes", [100]))
solver = (optimizer or "adam").lower()
if solver not in ("adam", "sgd"):
    _note(f"optimizer {optimizer!r} is not available for the MLP; using adam")
    solver = "adam"
mlp_kwargs = dict(
    hidden_layer_sizes=hidden, activation=hp_str("activation", "relu"), solver=solver,
    alpha=float(weight_decay) if weight_decay is not None else hp_float("alpha", 0.0001),
    learning_rate_init=float(learning_rate) if learning_rate else 0.001,
    batch_size=min(int(batch_size or 32), len(y_train)), random_state=seed, shuffle=True,
)
if mlp_kwargs["activation"] not in ("relu", "tanh", "logistic", "identity"):
    _note(f"activation {mlp_kwargs['activation']!r} unknown; using relu")
    mlp_kwargs["activation"] = "relu"
model = (MLPClassifier if task == "classification" else MLPRegressor)(**mlp_kwargs)
print(model)""",
    train_code=_LOSSES + """\
classes = np.arange(n_classes) if task == "classification" else None
for epoch in range(1, epochs + 1):
    if classes is not None:
        model.partial_fit(Xtr, y_train, classes=classes)
    else:
        model.partial_fit(Xtr, y_train)
    log_epoch(epoch, train_loss=model.loss_, test_loss=proba_loss(Xte, y_test),
              train_score=curve_score(y_train, model.predict(Xtr)),
              test_score=curve_score(y_test, model.predict(Xte)))""" + _PREDICT_CLASSIFIER,
    kid_words="neural network (layers of tiny calculators that pass numbers to each other and "
    "learn from their mistakes)",
    default_hyperparameters={"hidden_layer_sizes": [100]},
)

SKLEARN_TEMPLATES: tuple[NotebookTemplate, ...] = (
    LOGISTIC_REGRESSION,
    LINEAR_SVM,
    RANDOM_FOREST,
    GRADIENT_BOOSTING,
    MLP,
)
