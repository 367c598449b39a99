"""How the six seed-000 personas sound and lean at a werewolf table, keyed by persona slug.

A speech is built from parts (`talk.compose`): an opener in the persona's voice, the content sentences (a
claim, checks, whom the seat trusts or suspects, a defence), and a closer. Content templates are shared
(`SHARED`) and the persona adds its own variants in front, so the same fact is said many ways. Placeholders:
`{t}` a seat, `{c}` a claimant seat, `{n}` a night number, `{d}` a day number.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from app.games.brains import Cast


@dataclass(frozen=True)
class Voice:
    """One persona at the werewolf table."""

    slug: str
    boldness: float  # × the chance to claim early (seer) or fake-claim (wolf)
    noise: float  # chance of a vote by whim (a random offered target)
    follow: float  # weight of the votes already cast today on a seat
    contrarian: float  # weight against them
    lines: dict[str, tuple[str, ...]] = field(default_factory=dict)


SHARED: dict[str, tuple[str, ...]] = {
    "claim": ("我是预言家", "我就是预言家，这张牌我起跳", "本人预言家", "预言家是我", "我这张牌是预言家"),
    "check_wolf": ("第{n}晚验了{t}号，是查杀", "我第{n}晚查的{t}号，查杀", "{t}号是查杀，第{n}晚验的",
                   "第{n}晚验的{t}号，狼人"),
    "check_good": ("第{n}晚验了{t}号，金水", "我第{n}晚查的{t}号，是金水", "{t}号是金水，我第{n}晚验的",
                   "第{n}晚验{t}号，好人"),
    "vote_plan": ("今天全票出{t}号", "请大家跟我投{t}号", "今天就出{t}号，别分票", "票都挂{t}号"),
    "believe": ("{c}号的预言家我认", "我站{c}号这边", "{c}号像真预言家", "我信{c}号的验人"),
    "doubt": ("{c}号这个预言家我不认", "{c}号悍跳的，别信", "{c}号的报验对不上", "我不信{c}号是预言家"),
    "counter": ("{c}号是狼悍跳，真预言家在这", "{c}号跳的是假的", "两个预言家，{c}号是假的"),
    "suspect": ("我觉得{t}号有问题", "{t}号的发言很可疑", "我怀疑{t}号", "{t}号像狼", "重点看{t}号"),
    "voted_seer": ("{t}号昨天投了预言家，很可疑", "{t}号第{d}天的票打在预言家身上", "{t}号冲预言家的票我记住了"),
    "calm": ("信息太少，先听后面", "我是好人，没什么信息", "我先听听后面的发言", "目前看不出谁是狼",
             "第{d}天信息不多，我先过"),
    "defend": ("我是好人，别投我", "我真是好人，出我是亏", "别把好人推出去", "我身份干净"),
    "last": ("我是好人，大家加油", "我是好人，走好不送", "好人牌，请大家冷静"),
    "whisper": ("第{n}晚刀{t}号", "第{n}晚统一刀{t}号", "第{n}晚就刀{t}号吧"),
    "comment": ("第{d}天投{t}号", "{t}号，第{d}天这票给你", "第{d}天我出{t}号"),
}

ADAI = Voice("adai", boldness=1.3, noise=0.05, follow=0.8, contrarian=0.0, lines={
    "opener": ("我直说吧", "我这人不会绕弯子", "老实讲", "说句实在话", "我说说我的想法"),
    "closer": ("我说完了", "就这些", "大家信我一次", "我没别的了"),
    "suspect": ("我看{t}号不太对劲", "{t}号说话有点虚"),
    "calm": ("我是好人，真没什么信息", "我也不知道谁是狼，听大家的"),
    "defend": ("我是老实人，真的是好人", "别投我啊，我是好人"),
    "last": ("啊？我是好人啊，你们投错了", "我真的是好人，大家再看看"),
    "comment": ("跟大家走，第{d}天投{t}号", "第{d}天我也投{t}号"),
})
LINGLONG = Voice("linglong", boldness=0.8, noise=0.04, follow=0.2, contrarian=0.0, lines={
    "opener": ("我简单说两句", "点到为止", "我只讲逻辑", "冷静看局势"),
    "closer": ("言尽于此", "诸位自行判断", "其余的留给大家体会", "我过了"),
    "suspect": ("{t}号的发言有缺口", "{t}号的站边耐人寻味"),
    "calm": ("局势未明，不急下结论", "信息不够，我暂不站边"),
    "defend": ("我的身份经得起推敲", "出我，好人会后悔"),
    "last": ("输赢一念之间，真相会说话", "我走了，请留意场上的票型"),
    "comment": ("独立判断，第{d}天投{t}号", "第{d}天不跟风，投{t}号"),
})
LAOTIE = Voice("laotie", boldness=1.5, noise=0.08, follow=0.0, contrarian=0.3, lines={
    "opener": ("我不同意前面的说法", "杠一句", "你们说的我都不服", "别带节奏"),
    "closer": ("谁有意见冲我来", "就这样，不服来辩", "我话放这了", "爱信不信"),
    "suspect": ("{t}号那套说辞我不信", "{t}号就是狼，没得洗"),
    "calm": ("前面几位都在划水，我先保留意见", "谁也别急着下结论"),
    "defend": ("投我？你们早晚会后悔", "想出我，先拿出证据"),
    "last": ("不服，你们早晚会后悔", "行，算你们狠，我是好人"),
    "comment": ("偏要投{t}号，第{d}天不解释", "第{d}天反着来，投{t}号"),
})
NUOMI = Voice("nuomi", boldness=0.7, noise=0.3, follow=0.5, contrarian=0.0, lines={
    "opener": ("诶嘿，轮到我啦", "唔……我想想", "啊咧，我刚想说啥来着", "嘿嘿"),
    "closer": ("说完好饿呀", "我说对了吗", "嘿嘿，就这样啦", "拜托别投我嘛"),
    "suspect": ("{t}号好可疑哦", "我总觉得{t}号怪怪的"),
    "calm": ("我也不知道谁是狼呀", "大家都好像好人哦"),
    "defend": ("我是好人呀，别投我嘛", "呜呜，我真的是好人"),
    "last": ("呜呜，我还没玩够呢", "诶？是我吗？我是好人呀"),
    "comment": ("点兵点将，第{d}天就{t}号吧", "嘿嘿，第{d}天投{t}号"),
})
YINGYAN = Voice("yingyan", boldness=1.0, noise=0.0, follow=0.1, contrarian=0.0, lines={
    "opener": ("我梳理一下", "从逻辑上讲", "观察了一圈", "先复盘一下"),
    "closer": ("证据就是这些", "结论如上", "请大家对照票型", "以上"),
    "suspect": ("{t}号的站边和票型对不上", "数据指向{t}号"),
    "calm": ("线索还不够，我保留结论", "目前没有确定的狼坑"),
    "defend": ("我的票型和发言都经得起复盘", "出我不符合逻辑"),
    "last": ("遗憾，推理差了一步", "线索都在票型里，大家复盘"),
    "comment": ("按票型，第{d}天投{t}号", "第{d}天数据指向{t}号"),
})
OSCAR = Voice("oscar", boldness=1.4, noise=0.12, follow=0.3, contrarian=0.1, lines={
    "opener": ("（深吸一口气）各位", "（拍桌）我要说话了", "（眼含热泪）听我说", "（站起身）我说两句"),
    "closer": ("掌声在哪里", "这一幕我会记住的", "（鞠躬）我说完了", "天哪，我太难了"),
    "suspect": ("{t}号的演技不过关", "{t}号，你的眼神出卖了你"),
    "calm": ("（仰天长叹）一切尽在不言中", "我的心告诉我，再等等"),
    "defend": ("（捂住胸口）你们怎么能怀疑我", "我是好人，天地可鉴"),
    "last": ("（缓缓倒下）我是好人……", "落幕了，但戏还没完"),
    "comment": ("第{d}天这一票献给{t}号", "第{d}天心情不好，投{t}号"),
})

CAST = Cast((ADAI, LINGLONG, LAOTIE, NUOMI, YINGYAN, OSCAR), default=YINGYAN, shared=SHARED)  # unknown: 鹰眼
voice, pool = CAST.voice, CAST.pool
