"""Regenerate images/fonts/TeahouseSans-{Regular,Bold}.otf from Noto Sans CJK.

Dev-time script (fontTools is not a runtime dependency). On Debian/Ubuntu:

    apt-get install -y fonts-noto-cjk
    python scripts/subset_font.py            # or --src-dir DIR for other installs

It keeps Latin, punctuation, arrows, shapes, kana, the kanji/hanzi the five games
draw (plus a few hundred common ones) and every character of the translation catalogs
(bot/i18n/locales/*/LC_MESSAGES/*.po: kanji, hanzi and the hangul syllables they use;
tests/i18n/test_font.py fails when a catalog uses a character the font lacks), renames the family to "Teahouse Sans" (a
Modified Version under the OFL) and writes the OFL text next to the fonts.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from fontTools import subset
from fontTools.ttLib import TTCollection, TTFont

REPO = Path(__file__).resolve().parents[1]
OUT_DIR = REPO / "images" / "fonts"
DEFAULT_SRC = Path("/usr/share/fonts/opentype/noto")
COPYRIGHT_FILE = Path("/usr/share/doc/fonts-noto-cjk/copyright")
JP_INDEX = 0  # NotoSansCJK-*.ttc: 0 = JP (Japanese glyph forms suit hanafuda), 2 = SC
FAMILY = "Teahouse Sans"

RANGES = [
    (0x0020, 0x007E),  # ASCII
    (0x00A0, 0x017F),  # Latin-1 supplement + Latin Extended-A (player names)
    (0x0391, 0x03C9),  # Greek letters
    (0x0401, 0x044F),  # basic Cyrillic (player names)
    (0x2000, 0x206F),  # general punctuation
    (0x20A0, 0x20BF),  # currency
    (0x2100, 0x214F),  # letterlike (№ ™)
    (0x2150, 0x218F),  # number forms (Ⅰ Ⅱ ½)
    (0x2190, 0x21FF),  # arrows
    (0x2200, 0x22FF),  # mathematical operators (− × ≤ ≥)
    (0x2460, 0x24FF),  # enclosed alphanumerics ① ②
    (0x2500, 0x25FF),  # box drawing, blocks, geometric shapes
    (0x2600, 0x26FF),  # misc symbols ♠ ♥ ♦ ♣ ★ ☀
    (0x2700, 0x27BF),  # dingbats ✓ ✗ ❖ ➤
    (0x3000, 0x303F),  # CJK symbols and punctuation
    (0x3040, 0x30FF),  # hiragana + katakana
    (0xFF01, 0xFF5E),  # fullwidth ASCII
    (0xFF61, 0xFF9F),  # halfwidth katakana
]

# Characters the games draw; keep grouped by where they are used.
GAME_TEXT = """
一二三四五六七八九十月 松梅桜藤菖牡萩芒菊紅葉柳桐 光種短カス 鶴幕雁盃杯鶯橋蝶猪鹿燕鳳凰雷
三打一 虫 麻雀 花札 こいこい 猪鹿蝶 赤短 青短 五光 四光 雨四光 三光 月見 花見 酒 役 文 点
菖蒲 杜若 牡丹 薄 紅葉 柳 桐 桜 松 梅 藤 八橋 時鳥 不如帰 小野道風 蛙 傘 短冊 坊主 鳳凰
東南西北中發白 发 萬万 筒 餅 饼 條 条 索 竹 梅 蘭 兰 菊 春夏秋冬 風 风 龍 龙 花 牌 和 胡 碰 槓 杠
吃 聽 听 立直 自摸 栄 榮 荣 番 符 荘 莊 庄 闲 閑 家 抠底 叫分 主 副 王 大王 小王 不够 打 札 分
寿 玉鋼 玉露 蓮華 朝日 武士 芸者 天皇 紋 熊猫 猫 鯰 鸛 鶴 勝 負 終 局 回戦 親 子 流 引 合計 得点
"""

# Kyōiku kanji grades 1-2 and other frequent characters for labels.
COMMON = """
一右雨円王音下火花貝学気九休玉金空月犬見五口校左三山子四糸字耳七車手十出女小上森人水正生青夕石赤千
川先早草足村大男竹中虫町天田土二日入年白八百文木本名目立力林六引羽雲園遠何科夏家歌画回会海絵外角楽
活間丸岩顔汽記帰弓牛魚京強教近兄形計元言原戸古午後語工公広交光考行高黄合谷国黒今才細作算止市矢姉思
紙寺自時室社弱首秋週春書少場色食心新親図数西声星晴切雪船線前組走多太体台地池知茶昼長鳥朝直通弟店点
電刀冬当東答頭同道読内南肉馬売買麦半番父風分聞米歩母方北毎妹万明鳴毛門夜野友用曜来里理話
的是了我在有他这个们来到时大地为上国说要就出会可也你对生能而子那得于着下自之年过发后作里用道行所然
家种事成方多经么去法学如都同现当没动面起看定天分还进好小部其些主样理心她本前开但因只从想实日军者意
无力它与长把机十民第公此已工使情明性知全三又关点正业外将两高间由问很最重并物手应战向头文体政美相见
被利什二等产或新己制身果加西斯月话合回特代内信表化老给世位次度门任常先海通教儿原东声提立及比员解水
名真论处走义各入几口认条平系气题活尔更别打女变四神总何电数安少报才结反受目太量再感建务做接必场件计
管期市直德资命山金指克许统区保至队形社便空决治展马科司五基眼书非则听白却界达光放强即像难且权思王象
完设式色路记南品住告类求据程北边死张该交规万取拉格望觉术领共确传师观清今切院让识候带导争运笑飞风步
改收根干造言联持组每济车亲极林服快办议往元英士证近失转夫令准布始怎呢存未远叫台单影具罗字爱击流备兵
连调深商算质团集百需价花党华城石级整府离况亚请技际约示复病息究线似官火断精满支视消越器容照须九增研
写称企八功吗包片史委乎查轻易早曾除农找装广显吧阿李标谈吃图念六引历首医局突专费号尽另周较注语仅考落
青随选列武红响虽推势参希古众构房半节土投某案黑维革划敌致陈律足态护七兴派孩验责营星够章音跟志底站严
巴例防族供效续施留讲型料终答紧黄绝奇察母京段依批群项故按河米围江织害斗双境客纪采举杀攻父苏密低朝友
诉止细愿千值仍男钱破网热助倒育属坐帝限船脸职速刻乐否刚威毛状率甚独球般普怕弹校苦创假久错承印晚兰试
股拿脑预谁益阳若哪微尼继送急血惊伤素药适波夜省初喜卫源食险待述陆习置居劳财环排福纳欢雷警获模充负云
停木游龙树疑层冷洲冲射略范竟句室异激汉村哈策演简卡罪判担州静退既衣您宗积余痛检差富灵协角占配征修皮
挥胜降阶审沉坚善妈刘读啊超免压银买皇养伊怀执副乱抗犯追帮宣佛岁航优怪香著田铁控税左右份穿艺背阵草脚
"""


CATALOGS = REPO / "bot" / "i18n" / "locales"


def catalog_text() -> str:
    """Every character of the translation catalogs (their .po sources, read as text)."""
    return "".join(po.read_text(encoding="utf-8") for po in sorted(CATALOGS.rglob("*.po")))


def codepoints() -> list[int]:
    cps: set[int] = set()
    for lo, hi in RANGES:
        cps.update(range(lo, hi + 1))
    cps.update(ord(c) for c in GAME_TEXT + COMMON + catalog_text() if not c.isspace())
    return sorted(cps)


def rename(font: TTFont, style: str) -> None:
    """Give the subset its own family name (the OFL asks modified fonts not to pose as the original)."""
    name = font["name"]
    full = f"{FAMILY} {style}"
    ps = f"TeahouseSans-{style}"
    for rec in list(name.names):
        if rec.nameID in (1, 4, 6, 16, 17, 3):
            name.removeNames(nameID=rec.nameID)
    for plat, enc, lang in ((3, 1, 0x409), (1, 0, 0)):
        name.setName(FAMILY, 1, plat, enc, lang)
        name.setName(style, 2, plat, enc, lang)
        name.setName(f"{ps};subset of Noto Sans CJK JP", 3, plat, enc, lang)
        name.setName(full, 4, plat, enc, lang)
        name.setName(ps, 6, plat, enc, lang)
    if "CFF " in font:
        cff = font["CFF "].cff
        cff.fontNames = [ps]
        top = cff.topDictIndex[0]
        top.FullName = full
        top.FamilyName = FAMILY


def subset_one(src: Path, dst: Path, style: str) -> None:
    collection = TTCollection(str(src))
    font = collection.fonts[JP_INDEX]
    opts = subset.Options()
    opts.layout_features = ["kern", "palt", "halt", "liga", "locl", "ccmp"]
    opts.name_IDs = ["*"]
    opts.name_languages = [0x409, 0]
    opts.notdef_outline = True
    opts.glyph_names = False
    sub = subset.Subsetter(options=opts)
    sub.populate(unicodes=codepoints())
    sub.subset(font)
    rename(font, style)
    dst.parent.mkdir(parents=True, exist_ok=True)
    font.save(str(dst))
    print(
        f"{dst.relative_to(REPO)}: {dst.stat().st_size / 1024:.0f} KiB, {len(font.getGlyphOrder())} glyphs"
    )


OFL_HEADER = """Teahouse Sans (TeahouseSans-Regular.otf, TeahouseSans-Bold.otf) is a SUBSET of
Noto Sans CJK JP (Regular and Bold), made by scripts/subset_font.py from the Debian
package fonts-noto-cjk (NotoSansCJK-Regular.ttc / NotoSansCJK-Bold.ttc, face index 0).
Only the glyphs the Teahouse games draw were kept and the family was renamed; no
outlines were changed.

Upstream: https://github.com/googlefonts/noto-cjk
Copyright 2014-2021 Adobe (http://www.adobe.com/), with Reserved Font Name 'Source'.
Noto is a trademark of Google Inc.
Debian's copyright file states: Copyright 2010-2012, Google Corporation; License: SIL-1.1.

This Font Software is licensed under the SIL Open Font License, Version 1.1.
The licence text below is copied from /usr/share/doc/fonts-noto-cjk/copyright.

"""


def write_licence() -> None:
    text = COPYRIGHT_FILE.read_text(encoding="utf-8")
    start = text.index("License: SIL-1.1\n -----")
    body = text[start:].split("\n", 1)[1]
    lines = []
    for line in body.splitlines():
        if not line.startswith(" "):  # next stanza (e.g. "License: GPL-3+")
            break
        line = line[1:]
        lines.append("" if line == "." else line)
    (OUT_DIR / "OFL.txt").write_text(
        OFL_HEADER + "\n".join(lines).rstrip() + "\n", encoding="utf-8"
    )
    print(f"{(OUT_DIR / 'OFL.txt').relative_to(REPO)} written")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--src-dir", type=Path, default=DEFAULT_SRC)
    args = parser.parse_args(argv)
    for style in ("Regular", "Bold"):
        src = args.src_dir / f"NotoSansCJK-{style}.ttc"
        if not src.exists():
            print(f"missing {src}; install fonts-noto-cjk", file=sys.stderr)
            return 1
        subset_one(src, OUT_DIR / f"TeahouseSans-{style}.otf", style)
    write_licence()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
