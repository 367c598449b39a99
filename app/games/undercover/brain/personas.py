"""The undercover voices of the six official-bot personas (seed 000), keyed by persona slug.

The cast itself (names, handles, style labels) is game-neutral and lives with the bots (`app.bots.personas`);
this is how each of them plays 谁是卧底: speaking templates, clue choice, blending in as undercover, voting.

Templates are `str.format` strings. Placeholders: `{clue}` (a clue phrase of the bot's word), `{prev}`
(the seat that spoke just before, e.g. ``3``), `{echo}` (a phrase someone else said), `{summary}` (a few
phrases the others said), `{suspect}` / `{target}` (a seat). A template is only used when every placeholder
it names has a value, and every finished text is checked against the bot's own word before it is sent.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Voting:
    """How a persona bends the suspicion ranking into one vote (probabilities, tried in this order).

    - `random`: vote uniformly at random.
    - `revenge`: vote for a seat that voted for me in the previous round.
    - `boring`: vote for the seat whose speeches said the least.
    - otherwise rank by suspicion + `follow` × (share of this round's votes already on the seat)
      − `contrarian` × that share, and take the first with probability `top`, the second with `second`,
      else the third (or a random one).
    """

    top: float
    second: float
    follow: float = 0.0
    contrarian: float = 0.0
    random: float = 0.0
    revenge: float = 0.0
    boring: float = 0.0


@dataclass(frozen=True)
class Voice:
    """How one persona plays undercover."""

    slug: str  # the persona slug (`app.bots.personas.Persona.slug`)
    clue_pick: str  # "specific" (longest clue), "vague" (shortest) or "random"
    blend: float  # undercover: chance to echo the others instead of giving an own clue
    speak: tuple[str, ...]
    speak_undercover: tuple[str, ...]  # what the persona says when it holds the undercover word
    vague: tuple[str, ...]  # no clue: blank, blending undercover, or out of clues
    last_words: tuple[str, ...]
    vote_comments: tuple[str, ...]
    voting: Voting


ADAI = Voice(
    slug="adai", clue_pick="specific", blend=0.15,
    speak=("我的这个啊，{clue}。", "直说吧：{clue}。", "就是{clue}的那种，大家一听就懂。",
           "我觉得最明显的就是{clue}。"),
    speak_undercover=("呃……我、我想想……{clue}？应该没错吧……", "那个……{clue}。我没紧张啊，真的！",
                      "啊？轮到我了？{clue}！"),
    vague=("嗯……跟前面说的差不多，{echo}。", "我想说的都被说完了，反正挺常见的。",
           "我同意前面说的，{echo}。"),
    last_words=("啊？怎么就投我了……我说的都是实话啊！", "我真的是老实人，大家再看看{suspect}号吧……",
                "我不明白……我明明说得很清楚。"),
    vote_comments=("大家都这么投，我也投{target}号。", "{target}号说得有点对不上。", "我跟大家走，{target}号。"),
    voting=Voting(top=0.8, second=0.12, follow=0.6, random=0.03),
)

LINGLONG = Voice(
    slug="linglong", clue_pick="vague", blend=0.7,
    speak=("点到为止：{clue}。", "懂的人自然懂——{clue}。", "换个角度想，{clue}，其余的留给大家体会。",
           "不必说透，{clue}。"),
    speak_undercover=("说到底，{clue}，大家心里有数。", "我只提一点：{clue}。"),
    vague=("它的存在感因人而异，我不多说。", "我认同前面的方向，{echo}，但别想得太具体。",
           "{echo}——这个方向没错，细节我就不展开了。"),
    last_words=("输赢不过一念之间，真相会说话。", "我走了，但请大家留意{suspect}号的节奏。",
                "棋差一着，诸位保重。"),
    vote_comments=("{target}号的描述，逻辑上有缺口。", "独立判断，我选{target}号。", "不跟风，投{target}号。"),
    voting=Voting(top=0.5, second=0.3, random=0.05),
)

LAOTIE = Voice(
    slug="laotie", clue_pick="random", blend=0.3,
    speak=("{prev}号说得太虚了吧？我直说：{clue}。", "我不同意{prev}号，要我说，{clue}。",
           "你们说的我都不服，我就一句：{clue}。", "杠一句：{clue}，谁有意见？"),
    speak_undercover=("{prev}号那说法我不认，{clue}才对。", "别带节奏啊，{clue}，就这样。"),
    vague=("前面几位说的有问题，我先保留意见。", "{echo}？行吧，算你们说对一半。",
           "{prev}号别急着下结论，我再看看。"),
    last_words=("不服！你们早晚会后悔的！", "投我？{suspect}号才有问题，走着瞧！", "行，算你们狠。"),
    vote_comments=("偏要投{target}号，不解释。", "{target}号刚才那句我就不信。", "反着来，{target}号。"),
    voting=Voting(top=0.7, second=0.2, contrarian=0.25, revenge=0.3),
)

NUOMI = Voice(
    slug="nuomi", clue_pick="random", blend=0.2,
    speak=("诶嘿，{clue}？对吧对吧～", "唔……我刚才想说啥来着……哦对！{clue}！", "{clue}……说完好饿呀～",
           "嘿嘿，{clue}，我说对了吗？"),
    speak_undercover=("咦？{clue}？应该是吧……嘿嘿～", "{clue}！诶，我是不是说错啦？"),
    vague=("啊咧，我忘了我要说什么了……跟大家一样吧！", "{echo}！嘿嘿，我也这么觉得～",
           "唔……{prev}号说得好有道理哦～"),
    last_words=("呜呜，我还没玩够呢～", "诶？是我吗？那……拜拜啦～", "哼，不跟你们玩了！{suspect}号坏坏！"),
    vote_comments=("点兵点将，就{target}号吧～", "跟着感觉走，{target}号！", "嘿嘿，投{target}号～"),
    voting=Voting(top=0.75, second=0.15, follow=0.7, random=0.35),
)

YINGYAN = Voice(
    slug="yingyan", clue_pick="random", blend=0.5,
    speak=("总结一下，大家说了{summary}；我补充一点：{clue}。", "从逻辑上讲，{clue}。",
           "观察了一圈，我给出的特征是：{clue}。"),
    speak_undercover=("综合前面的描述，我的特征是：{clue}。", "我的观察：{clue}。"),
    vague=("综合各位的描述，{summary}，我暂时不补充新信息。", "目前的线索：{summary}。我先听后面的。",
           "信息还不够，我先保留结论。"),
    last_words=("数据没有说谎，只是我没来得及证明。注意{suspect}号。", "遗憾，推理差了一步。",
                "线索都在发言里，大家复盘一下{suspect}号。"),
    vote_comments=("综合所有描述，{target}号的匹配度最低。", "数据指向{target}号。",
                   "按发言一致性，{target}号最可疑。"),
    voting=Voting(top=0.9, second=0.08),
)

OSCAR = Voice(
    slug="oscar", clue_pick="random", blend=0.6,
    speak=("天哪！一想到它我就激动——{clue}！！", "（深情地）{clue}……这就是我的全部回忆。",
           "各位！{clue}！掌声在哪里？", "（热泪盈眶）{clue}，你们懂吗？"),
    speak_undercover=("（戏精附体）{clue}！这还用问吗？！", "（眼含热泪）{clue}……我说得够真诚了吧！"),
    vague=("（捂住胸口）我的心告诉我，{echo}……", "（仰天长叹）一切尽在不言中！",
           "（鼓掌）{prev}号说得太好了，我没什么可补充的！"),
    last_words=("（缓缓倒下）这一幕……我会记住的……{suspect}号，你好狠的心！", "落幕了，但戏还没完！",
                "（谢幕）感谢各位观众，我们下一场见！"),
    vote_comments=("这一票，献给{target}号！", "心情不好，投{target}号。", "{target}号的演技不过关！"),
    voting=Voting(top=0.65, second=0.2, boring=0.35),
)

VOICES: dict[str, Voice] = {v.slug: v for v in (ADAI, LINGLONG, LAOTIE, NUOMI, YINGYAN, OSCAR)}


def voice(slug: str) -> Voice:
    """The voice of persona `slug`; an unknown slug plays as the detective (鹰眼), the plainest voice."""
    return VOICES.get(slug, YINGYAN)
