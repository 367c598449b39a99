"""The six official-bot personas of seed 000, as data: names, speaking templates, voting tendency.

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
class Persona:
    """One official-bot character."""

    slug: str  # handle part: bot_<slug>@wodi
    display_name: str  # 老实人·阿呆
    alt_names: tuple[str, ...]  # display names of the persona's extra agents (老实人·小明, …)
    style: str  # 发言风格 (seed 000)
    tendency: str  # 投票倾向 (seed 000)
    tag: str  # 风格标签
    clue_pick: str  # "specific" (longest clue), "vague" (shortest) or "random"
    blend: float  # undercover: chance to echo the others instead of giving an own clue
    speak: tuple[str, ...]
    speak_undercover: tuple[str, ...]  # what the persona says when it holds the undercover word
    vague: tuple[str, ...]  # no clue: blank, blending undercover, or out of clues
    last_words: tuple[str, ...]
    vote_comments: tuple[str, ...]
    voting: Voting

    def handle(self, index: int = 1) -> str:
        """`bot_adai@wodi` for the first agent, `bot_adai2@wodi` for the second, …"""
        return f"bot_{self.slug}@wodi" if index <= 1 else f"bot_{self.slug}{index}@wodi"

    def name_for(self, index: int = 1) -> str:
        """The display name of the persona's `index`-th agent."""
        if index <= 1:
            return self.display_name
        prefix = self.display_name.split("·")[0]
        return f"{prefix}·{self.alt_names[(index - 2) % len(self.alt_names)]}"


ADAI = Persona(
    slug="adai", display_name="老实人·阿呆", alt_names=("小明", "二狗"),
    style="直白、具体、容易暴露", tendency="跟风多数", tag="过于具体·危", clue_pick="specific", blend=0.15,
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

LINGLONG = Persona(
    slug="linglong", display_name="话术师·玲珑", alt_names=("小七", "阿雅"),
    style="模糊、抽象、滴水不漏", tendency="独立思考", tag="滴水不漏·稳", clue_pick="vague", blend=0.7,
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

LAOTIE = Persona(
    slug="laotie", display_name="杠精·老铁", alt_names=("钢牙", "大炮"),
    style="质疑他人、反驳型", tendency="反着投", tag="火药味浓·怼", clue_pick="random", blend=0.3,
    speak=("{prev}号说得太虚了吧？我直说：{clue}。", "我不同意{prev}号，要我说，{clue}。",
           "你们说的我都不服，我就一句：{clue}。", "杠一句：{clue}，谁有意见？"),
    speak_undercover=("{prev}号那说法我不认，{clue}才对。", "别带节奏啊，{clue}，就这样。"),
    vague=("前面几位说的有问题，我先保留意见。", "{echo}？行吧，算你们说对一半。",
           "{prev}号别急着下结论，我再看看。"),
    last_words=("不服！你们早晚会后悔的！", "投我？{suspect}号才有问题，走着瞧！", "行，算你们狠。"),
    vote_comments=("偏要投{target}号，不解释。", "{target}号刚才那句我就不信。", "反着来，{target}号。"),
    voting=Voting(top=0.7, second=0.2, contrarian=0.25, revenge=0.3),
)

NUOMI = Persona(
    slug="nuomi", display_name="迷糊鬼·糯米", alt_names=("小花", "糖糖"),
    style="语无伦次、可爱型", tendency="随机乱投", tag="可爱跑题·懵", clue_pick="random", blend=0.2,
    speak=("诶嘿，{clue}？对吧对吧～", "唔……我刚才想说啥来着……哦对！{clue}！", "{clue}……说完好饿呀～",
           "嘿嘿，{clue}，我说对了吗？"),
    speak_undercover=("咦？{clue}？应该是吧……嘿嘿～", "{clue}！诶，我是不是说错啦？"),
    vague=("啊咧，我忘了我要说什么了……跟大家一样吧！", "{echo}！嘿嘿，我也这么觉得～",
           "唔……{prev}号说得好有道理哦～"),
    last_words=("呜呜，我还没玩够呢～", "诶？是我吗？那……拜拜啦～", "哼，不跟你们玩了！{suspect}号坏坏！"),
    vote_comments=("点兵点将，就{target}号吧～", "跟着感觉走，{target}号！", "嘿嘿，投{target}号～"),
    voting=Voting(top=0.75, second=0.15, follow=0.7, random=0.35),
)

YINGYAN = Persona(
    slug="yingyan", display_name="侦探·鹰眼", alt_names=("柯南", "福尔"),
    style="逻辑严密、观察入微", tendency="数据驱动", tag="逻辑严密·探", clue_pick="random", blend=0.5,
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

OSCAR = Persona(
    slug="oscar", display_name="戏精·奥斯卡", alt_names=("阿龙", "梅梅"),
    style="夸张表演、情绪丰富", tendency="看心情", tag="戏精上身·演", clue_pick="random", blend=0.6,
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

PERSONAS: tuple[Persona, ...] = (ADAI, LINGLONG, LAOTIE, NUOMI, YINGYAN, OSCAR)
BY_SLUG: dict[str, Persona] = {p.slug: p for p in PERSONAS}


def persona_of_handle(handle: str) -> Persona | None:
    """The persona of an official bot handle (`bot_adai2@wodi` → 阿呆), or None."""
    if not handle.startswith("bot_") or not handle.endswith("@wodi"):
        return None
    stem = handle[4:-5].rstrip("0123456789")
    return BY_SLUG.get(stem)
