/**
 * The selectable areas of addresses: where the marketplace ships most, the address form offers a list
 * (Mainland provinces, Hong Kong's 18 districts, Taiwan's counties and cities, Macao's parishes);
 * everywhere else the province, city and district are free text.
 */
import { catalogueOf, type Locale } from '../i18n/locales.ts';

/** Which address field the list fills. */
export type RegionLevel = 'province' | 'city' | 'district';

export interface RegionOption {
  code: string;
  name: string;
}

export interface RegionChoice {
  level: RegionLevel;
  options: RegionOption[];
}

/** Each entry is "code|English|Traditional|Simplified". */
const REGIONS: Record<string, { level: RegionLevel; entries: readonly string[] }> = {
  CN: {
    level: 'province',
    entries: [
      'BJ|Beijing|北京|北京',
      'TJ|Tianjin|天津|天津',
      'HE|Hebei|河北|河北',
      'SX|Shanxi|山西|山西',
      'NM|Inner Mongolia|內蒙古|内蒙古',
      'LN|Liaoning|遼寧|辽宁',
      'JL|Jilin|吉林|吉林',
      'HL|Heilongjiang|黑龍江|黑龙江',
      'SH|Shanghai|上海|上海',
      'JS|Jiangsu|江蘇|江苏',
      'ZJ|Zhejiang|浙江|浙江',
      'AH|Anhui|安徽|安徽',
      'FJ|Fujian|福建|福建',
      'JX|Jiangxi|江西|江西',
      'SD|Shandong|山東|山东',
      'HA|Henan|河南|河南',
      'HB|Hubei|湖北|湖北',
      'HN|Hunan|湖南|湖南',
      'GD|Guangdong|廣東|广东',
      'GX|Guangxi|廣西|广西',
      'HI|Hainan|海南|海南',
      'CQ|Chongqing|重慶|重庆',
      'SC|Sichuan|四川|四川',
      'GZ|Guizhou|貴州|贵州',
      'YN|Yunnan|雲南|云南',
      'XZ|Tibet|西藏|西藏',
      'SN|Shaanxi|陝西|陕西',
      'GS|Gansu|甘肅|甘肃',
      'QH|Qinghai|青海|青海',
      'NX|Ningxia|寧夏|宁夏',
      'XJ|Xinjiang|新疆|新疆',
    ],
  },
  HK: {
    level: 'district',
    entries: [
      'CW|Central and Western|中西區|中西区',
      'WC|Wan Chai|灣仔區|湾仔区',
      'EA|Eastern|東區|东区',
      'SO|Southern|南區|南区',
      'YT|Yau Tsim Mong|油尖旺區|油尖旺区',
      'SS|Sham Shui Po|深水埗區|深水埗区',
      'KC|Kowloon City|九龍城區|九龙城区',
      'WT|Wong Tai Sin|黃大仙區|黄大仙区',
      'KT|Kwun Tong|觀塘區|观塘区',
      'KI|Kwai Tsing|葵青區|葵青区',
      'TW|Tsuen Wan|荃灣區|荃湾区',
      'TM|Tuen Mun|屯門區|屯门区',
      'YL|Yuen Long|元朗區|元朗区',
      'NO|North|北區|北区',
      'TP|Tai Po|大埔區|大埔区',
      'ST|Sha Tin|沙田區|沙田区',
      'SK|Sai Kung|西貢區|西贡区',
      'IS|Islands|離島區|离岛区',
    ],
  },
  MO: {
    level: 'district',
    entries: [
      'NSF|Our Lady of Fatima|花地瑪堂區|花地玛堂区',
      'SAN|St. Anthony|花王堂區|花王堂区',
      'SLA|St. Lazarus|望德堂區|望德堂区',
      'SLO|St. Lawrence|風順堂區|风顺堂区',
      'SE|Sé|大堂區|大堂区',
      'CAR|Our Lady of Carmel (Taipa)|嘉模堂區（氹仔）|嘉模堂区（氹仔）',
      'SFX|St. Francis Xavier (Coloane)|聖方濟各堂區（路環）|圣方济各堂区（路环）',
      'COT|Cotai|路氹城|路氹城',
    ],
  },
  TW: {
    level: 'city',
    entries: [
      'TPE|Taipei City|臺北市|台北市',
      'NWT|New Taipei City|新北市|新北市',
      'KEE|Keelung City|基隆市|基隆市',
      'TAO|Taoyuan City|桃園市|桃园市',
      'HSZ|Hsinchu City|新竹市|新竹市',
      'HSQ|Hsinchu County|新竹縣|新竹县',
      'MIA|Miaoli County|苗栗縣|苗栗县',
      'TXG|Taichung City|臺中市|台中市',
      'CHA|Changhua County|彰化縣|彰化县',
      'NAN|Nantou County|南投縣|南投县',
      'YUN|Yunlin County|雲林縣|云林县',
      'CYI|Chiayi City|嘉義市|嘉义市',
      'CYQ|Chiayi County|嘉義縣|嘉义县',
      'TNN|Tainan City|臺南市|台南市',
      'KHH|Kaohsiung City|高雄市|高雄市',
      'PIF|Pingtung County|屏東縣|屏东县',
      'ILA|Yilan County|宜蘭縣|宜兰县',
      'HUA|Hualien County|花蓮縣|花莲县',
      'TTT|Taitung County|臺東縣|台东县',
      'PEN|Penghu County|澎湖縣|澎湖县',
      'KIN|Kinmen County|金門縣|金门县',
      'LIE|Lienchiang County|連江縣|连江县',
    ],
  },
};

/** The list a country's address form offers, in a locale; null when its areas are free text. */
export function regionChoice(country: string, locale: Locale): RegionChoice | null {
  const regions = REGIONS[country];
  if (!regions) return null;
  const column = { en: 1, 'zh-Hant': 2, 'zh-Hans': 3 }[catalogueOf(locale)];
  const options = regions.entries.map((entry) => {
    const parts = entry.split('|');
    return { code: parts[0], name: parts[column] };
  });
  return { level: regions.level, options };
}

/** Whether a value is one of the area codes a country offers (always true for free-text countries). */
export function isSelectableRegion(country: string, code: string): boolean {
  const regions = REGIONS[country];
  return !regions || regions.entries.some((entry) => entry.startsWith(`${code}|`));
}

/** The level a country selects from a list, or null for free text. */
export function selectableLevel(country: string): RegionLevel | null {
  return REGIONS[country]?.level ?? null;
}

/** How an area value reads: a selectable code by its localized name, free text as typed. */
export function regionName(country: string, value: string, locale: Locale): string {
  return regionChoice(country, locale)?.options.find((option) => option.code === value)?.name ?? value;
}
