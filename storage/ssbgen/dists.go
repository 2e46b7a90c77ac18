package ssbgen

// The value domains below are dbgen's (TPC-H dists.dss, as ssb-dbgen uses
// them). Every list is drawn from uniformly: dbgen gives each entry of these
// distributions weight 1, so the SSB predicates on them (p_mfgr, s_region,
// c_nation, ...) select 1/len of the rows.

// nation is one TPC-H nation; region indexes regions.
type nation struct {
	name   string
	region int
}

// nations in TPC-H key order: c_phone's country code is 10 + the index.
var nations = [25]nation{
	{"ALGERIA", 0}, {"ARGENTINA", 1}, {"BRAZIL", 1}, {"CANADA", 1},
	{"EGYPT", 4}, {"ETHIOPIA", 0}, {"FRANCE", 3}, {"GERMANY", 3},
	{"INDIA", 2}, {"INDONESIA", 2}, {"IRAN", 4}, {"IRAQ", 4},
	{"JAPAN", 2}, {"JORDAN", 4}, {"KENYA", 0}, {"MOROCCO", 0},
	{"MOZAMBIQUE", 0}, {"PERU", 1}, {"CHINA", 2}, {"ROMANIA", 3},
	{"SAUDI ARABIA", 4}, {"VIETNAM", 2}, {"RUSSIA", 3},
	{"UNITED KINGDOM", 3}, {"UNITED STATES", 1},
}

var regions = [5]string{"AFRICA", "AMERICA", "ASIA", "EUROPE", "MIDDLE EAST"}

// colors are the 92 TPC-H color words: p_name is two distinct ones, p_color one.
var colors = [...]string{
	"almond", "antique", "aquamarine", "azure", "beige", "bisque", "black",
	"blanched", "blue", "blush", "brown", "burlywood", "burnished",
	"chartreuse", "chiffon", "chocolate", "coral", "cornflower", "cornsilk",
	"cream", "cyan", "dark", "deep", "dim", "dodger", "drab", "firebrick",
	"floral", "forest", "frosted", "gainsboro", "ghost", "goldenrod", "green",
	"grey", "honeydew", "hot", "indian", "ivory", "khaki", "lace", "lavender",
	"lawn", "lemon", "light", "lime", "linen", "magenta", "maroon", "medium",
	"metallic", "midnight", "mint", "misty", "moccasin", "navajo", "navy",
	"olive", "orange", "orchid", "pale", "papaya", "peach", "peru", "pink",
	"plum", "powder", "puff", "purple", "red", "rose", "rosy", "royal",
	"saddle", "salmon", "sandy", "seashell", "sienna", "sky", "slate",
	"smoke", "snow", "spring", "steel", "tan", "thistle", "tomato",
	"turquoise", "violet", "wheat", "white", "yellow",
}

// p_type is one word of each syllable list (150 types).
var (
	typeSyllable1 = [...]string{"STANDARD", "SMALL", "MEDIUM", "LARGE", "ECONOMY", "PROMO"}
	typeSyllable2 = [...]string{"ANODIZED", "BURNISHED", "PLATED", "POLISHED", "BRUSHED"}
	typeSyllable3 = [...]string{"TIN", "NICKEL", "BRASS", "STEEL", "COPPER"}
)

// p_container is a size word and a kind word (40 containers).
var (
	containerSyllable1 = [...]string{"SM", "LG", "MED", "JUMBO", "WRAP"}
	containerSyllable2 = [...]string{"CASE", "BOX", "BAG", "JAR", "PKG", "PACK", "CAN", "DRUM"}
)

var segments = [...]string{"AUTOMOBILE", "BUILDING", "FURNITURE", "MACHINERY", "HOUSEHOLD"}

// priorities are TPC-H's, cut to 11 characters as ssb-dbgen prints them
// ("4-NOT SPECIFIED" becomes "4-NOT SPECI").
var priorities = [...]string{"1-URGENT", "2-HIGH", "3-MEDIUM", "4-NOT SPECI", "5-LOW"}

var shipModes = [...]string{"REG AIR", "AIR", "RAIL", "SHIP", "TRUCK", "MAIL", "FOB"}

// alphaNum is dbgen's alphabet for random text (addresses): 64 characters,
// space and comma included.
const alphaNum = "0123456789abcdefghijklmnopqrstuvwxyz ABCDEFGHIJKLMNOPQRSTUVWXYZ,"
