// The page module for a game without one of its own: the seats, the phase as the server names it and every
// event by its type, so a new game is watchable before its page module exists.

export default function generic(kit) {
  const { T, format } = kit;
  return {
    steps: ["waiting", "playing", "finished"],
    stepOf: (stage) => (["waiting", "finished", "aborted"].includes(stage) ? stage : "playing"),
    configLine: (config) => format(T.config_line_generic, { n: config.n_players }),
    roundLabel: (model) => `${format(T.round_counter, { n: model.round })} · ${model.phase}`,
    init() {},
    apply() {},
    card: (p) => ({ data: { role: p.role || p.revealed_role || "" }, tags: [kit.statusChip(p), kit.roleChip(p.role || p.revealed_role)] }),
    votes(ui) {
      ui.votesCard.hidden = true;
    },
    result: () => [],
    you: (me) => [kit.roleChip(me.role)],
    streamItem: (ev, model, round) => kit.common(ev, model, round) || kit.raw(ev, model, round),
  };
}
