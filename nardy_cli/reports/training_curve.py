"""The learning-curve chart: points per game against `heuristic` over the games trained."""

from __future__ import annotations


def learning_curve_figure(log):
    """A Figure of the benchmark duels in a training log (DataFrame from `read_log`)."""
    from matplotlib.figure import Figure
    bench = log.dropna(subset=["vs_heuristic"])
    fig = Figure(figsize=(7.5, 4.2))
    ax = fig.add_subplot()
    if bench.empty:
        ax.text(0.5, 0.5, "no benchmark duel yet", ha="center", va="center", transform=ax.transAxes)
        ax.set_axis_off()
        return fig
    x = bench["games"] / 1000.0
    ax.errorbar(x, bench["vs_heuristic"], yerr=1.96 * bench["vs_heuristic_se"], fmt="o-",
                color="#1f5fa8", capsize=3, label="neural vs heuristic")
    ax.axhline(0.0, color="#888888", lw=0.8)
    ax.set_xlabel("games trained (thousands)")
    ax.set_ylabel("points per game (95% interval)")
    ax.set_title("Learning curve: the network against heuristic, duplicate dice")
    ax.grid(alpha=0.3)
    ax.legend(loc="lower right", frameon=False)
    fig.tight_layout()
    return fig


def supervised_curve_figure(curve):
    """A Figure of a supervised run's curve (DataFrame of `SupervisedResult.frame`): the training
    and validation loss (KL divergence from the rollouts' chances) by epoch, and the validation
    equity error."""
    from matplotlib.figure import Figure
    fig = Figure(figsize=(7.5, 4.8))
    ax = fig.add_subplot()
    ax.plot(curve["epoch"], curve["train_loss"], "o-", color="#1f5fa8", ms=3, label="training")
    ax.plot(curve["epoch"], curve["valid_loss"], "o-", color="#c0392b", ms=3, label="validation")
    if curve["valid_blocked_loss"].notna().any():
        ax.plot(curve["epoch"], curve["valid_blocked_loss"], "o--", color="#c0392b", ms=3,
                alpha=0.5, label="validation, blocked")
    ax.set_xlabel("epoch (0: the starting weights)")
    ax.set_ylabel("loss: KL divergence from the rollouts")
    ax.grid(alpha=0.3)
    rmse = ax.twinx()
    rmse.plot(curve["epoch"], curve["valid_equity_rmse"], "s:", color="#555555", ms=3,
              label="validation equity RMSE (right)")
    rmse.set_ylabel("equity RMSE, validation")
    lines = ax.get_legend_handles_labels()
    more = rmse.get_legend_handles_labels()
    ax.legend(lines[0] + more[0], lines[1] + more[1], loc="upper center",
              bbox_to_anchor=(0.5, -0.14), ncol=2, frameon=False, fontsize=8)
    ax.set_title("Supervised training on rolled-out positions")
    fig.tight_layout()
    return fig
