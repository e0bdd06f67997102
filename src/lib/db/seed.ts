/**
 * The demo catalogue: reference data (languages, currencies, places) plus a generated but believable
 * marketplace (artists on tour, sessions, ticket tiers, seller listings, promotions).
 *
 * Everything is derived from one seeded PRNG and `referenceTime`, so a given day always yields the
 * same rows, and the random draws never depend on `referenceTime`: another day only moves the dates.
 * The module is pure (no I/O, no clock) so it runs in Node scripts and in workerd alike.
 */
import { createHash } from 'node:crypto';
import { mulberry32 } from '../domain/random.ts';
import { posterPath } from '../domain/poster-images.ts';
import categoryRows from './seed-categories.json' with { type: 'json' };
import { DEFAULT_CITY_ID } from '../config/request.ts';
import { DELIVERY_TYPES, type DeliveryType } from '../domain/delivery.ts';

type SeedValue = string | number | boolean | null;
type SeedRow = Record<string, SeedValue>;
export type SeedData = Record<string, SeedRow[]>;

/** Tables in foreign-key order: every table comes after the tables it references. */
export const SEED_TABLES: string[] = [
  'languages',
  'currencies',
  'fx_rates',
  'countries',
  'cities',
  'categories',
  'venues',
  'artists',
  'users',
  'activities',
  'activity_sessions',
  'ticket_tiers',
  'listings',
  'lotteries',
  'coupons',
  'hot_keywords',
  'banners',
  'pop_up_boxes',
];

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const PRNG_SEED = 0x5eed_2024;
/** Sessions fall between one day and this many days after the reference time. */
const HORIZON_DAYS = 180;
/** The home page lists shows of the next 15 days, so each city needs some starting that soon. */
const SOON_DAYS = 14;
const HONG_KONG_SOON_COUNT = 28;
const FIRST_ACTIVITY_ID = 1000;
const HOT_COUNT = { hongKong: 8, elsewhere: 22 };
const RARE_COUNT = { hongKong: 8, elsewhere: 22 };
const SOLD_OUT_COUNT = { hongKongSoon: 2, elsewhere: 6 };

// ---------------------------------------------------------------------------------------------
// Randomness

function makeRandom(seed: number) {
  const next = mulberry32(seed);
  const int = (min: number, max: number): number => min + Math.floor(next() * (max - min + 1));
  const shuffle = <T>(items: readonly T[]): T[] => {
    const out = [...items];
    for (let i = out.length - 1; i > 0; i--) {
      const j = Math.floor(next() * (i + 1));
      [out[i], out[j]] = [out[j], out[i]];
    }
    return out;
  };
  return {
    next,
    int,
    shuffle,
    chance: (probability: number): boolean => next() < probability,
    pick: <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)],
    /** Draws `count` distinct items, each draw weighted by `weight`. */
    weightedSample: <T>(items: readonly T[], count: number, weight: (item: T) => number): T[] => {
      const pool = items.filter((item) => weight(item) > 0);
      const chosen: T[] = [];
      while (chosen.length < count && pool.length > 0) {
        let target = next() * pool.reduce((sum, item) => sum + weight(item), 0);
        const index = pool.findIndex((item) => {
          target -= weight(item);
          return target < 0;
        });
        chosen.push(pool.splice(index === -1 ? pool.length - 1 : index, 1)[0]);
      }
      return chosen;
    },
  };
}

type Random = ReturnType<typeof makeRandom>;

// ---------------------------------------------------------------------------------------------
// Reference data

type Names = readonly [en: string, zhHant: string, zhHans: string];

const LANGUAGES = [
  ['en', 'English'],
  ['zh-HK', '繁體中文(香港)'],
  ['zh-TW', '繁體中文(台灣)'],
  ['zh-CN', '简体中文'],
] as const;

/**
 * code, description, currency_type, minor digits, quote units one HKD buys (× 1e6),
 * then the top face value of a headline concert and the step prices round to, both in major units.
 */
const CURRENCIES = [
  ['HKD', 'Hong Kong Dollar', 1, 2, 1_000_000, 1280, 10],
  ['MOP', 'Macanese Pataca', 2, 2, 1_030_000, 1280, 10],
  ['TWD', 'New Taiwan Dollar', 3, 0, 4_100_000, 5800, 100],
  ['CNY', 'Chinese Yuan', 4, 2, 920_000, 1280, 10],
  ['SGD', 'Singapore Dollar', 5, 2, 172_000, 288, 1],
  ['MYR', 'Malaysian Ringgit', 6, 2, 570_000, 888, 1],
  ['THB', 'Thai Baht', 7, 2, 4_400_000, 6500, 100],
  ['PHP', 'Philippine Peso', 8, 2, 7_400_000, 12_000, 100],
  ['IDR', 'Indonesian Rupiah', 9, 0, 2_050_000_000, 3_500_000, 50_000],
  ['VND', 'Vietnamese Dong', 10, 0, 3_250_000_000, 4_500_000, 50_000],
  ['USD', 'US Dollar', 11, 2, 128_500, 165, 1],
] as const;

type CurrencyCode = (typeof CURRENCIES)[number][0];

const CURRENCY = new Map(
  CURRENCIES.map(([code, , , minorDigits, , topFace, step]) => [code, { minorUnit: 10 ** minorDigits, topFace, step }]),
);

const COUNTRIES = [
  [1, 'HK', '+852', 'Hong Kong', '香港', '香港'],
  [2, 'MO', '+853', 'Macao', '澳門', '澳门'],
  [3, 'TW', '+886', 'Taiwan', '台灣', '台湾'],
  [4, 'CN', '+86', 'Mainland China', '中國內地', '中国内地'],
  [5, 'SG', '+65', 'Singapore', '新加坡', '新加坡'],
  [6, 'MY', '+60', 'Malaysia', '馬來西亞', '马来西亚'],
  [7, 'TH', '+66', 'Thailand', '泰國', '泰国'],
  [8, 'PH', '+63', 'Philippines', '菲律賓', '菲律宾'],
  [9, 'ID', '+62', 'Indonesia', '印尼', '印尼'],
  [10, 'VN', '+84', 'Vietnam', '越南', '越南'],
  [11, 'JP', '+81', 'Japan', '日本', '日本'],
  [12, 'KR', '+82', 'South Korea', '韓國', '韩国'],
  [13, 'US', '+1', 'United States', '美國', '美国'],
  [14, 'GB', '+44', 'United Kingdom', '英國', '英国'],
  [15, 'AU', '+61', 'Australia', '澳洲', '澳大利亚'],
] as const;

interface City {
  id: number;
  countryId: number;
  names: Names;
  code: string;
  timeZone: string;
  /** Hours ahead of UTC; none of these zones observes daylight saving. */
  utcOffset: number;
  currency: CurrencyCode;
  longitude: number;
  latitude: number;
  isHot: boolean;
  isChina: boolean;
  /** Relative chance that a touring production stops here. */
  tourWeight: number;
}

// id, country id, names, city_code, zone, UTC offset, currency, longitude, latitude, hot, touring weight
const CITY_ROWS = [
  [DEFAULT_CITY_ID, 1, 'Hong Kong', '香港', '香港', 'hongkong', 'Asia/Hong_Kong', 8, 'HKD', 114.1694, 22.3193, true, 6],
  [342, 2, 'Macao', '澳門', '澳门', 'macao', 'Asia/Macau', 8, 'MOP', 113.5439, 22.1987, true, 2],
  [343, 3, 'Taipei', '台北', '台北', 'taipei', 'Asia/Taipei', 8, 'TWD', 121.5654, 25.033, true, 3],
  [344, 3, 'Kaohsiung', '高雄', '高雄', 'kaohsiung', 'Asia/Taipei', 8, 'TWD', 120.3014, 22.6273, false, 1.5],
  [345, 3, 'Taichung', '台中', '台中', 'taichung', 'Asia/Taipei', 8, 'TWD', 120.6736, 24.1477, false, 1.5],
  [346, 4, 'Shanghai', '上海', '上海', 'shanghai', 'Asia/Shanghai', 8, 'CNY', 121.4737, 31.2304, true, 3],
  [347, 4, 'Beijing', '北京', '北京', 'beijing', 'Asia/Shanghai', 8, 'CNY', 116.4074, 39.9042, true, 2],
  [348, 4, 'Guangzhou', '廣州', '广州', 'guangzhou', 'Asia/Shanghai', 8, 'CNY', 113.2644, 23.1291, false, 2],
  [349, 4, 'Shenzhen', '深圳', '深圳', 'shenzhen', 'Asia/Shanghai', 8, 'CNY', 114.0579, 22.5431, true, 2],
  [350, 5, 'Singapore', '新加坡', '新加坡', 'singapore', 'Asia/Singapore', 8, 'SGD', 103.8198, 1.3521, true, 3],
  [351, 6, 'Kuala Lumpur', '吉隆坡', '吉隆坡', 'kualalumpur', 'Asia/Kuala_Lumpur', 8, 'MYR', 101.6869, 3.139, false, 2],
  [352, 7, 'Bangkok', '曼谷', '曼谷', 'bangkok', 'Asia/Bangkok', 7, 'THB', 100.5018, 13.7563, true, 2],
  [353, 8, 'Manila', '馬尼拉', '马尼拉', 'manila', 'Asia/Manila', 8, 'PHP', 120.9842, 14.5995, false, 1.5],
  [354, 9, 'Jakarta', '雅加達', '雅加达', 'jakarta', 'Asia/Jakarta', 7, 'IDR', 106.8456, -6.2088, false, 1.5],
  [355, 10, 'Ho Chi Minh City', '胡志明市', '胡志明市', 'hochiminhcity', 'Asia/Ho_Chi_Minh', 7, 'VND', 106.6297, 10.8231, false, 1.5],
] as const;

const MAINLAND_CHINA_ID = 4;

const CITIES: City[] = CITY_ROWS.map(
  ([id, countryId, en, hant, hans, code, timeZone, utcOffset, currency, longitude, latitude, isHot, tourWeight]) => ({
    id,
    countryId,
    names: [en, hant, hans],
    code,
    timeZone,
    utcOffset,
    currency,
    longitude,
    latitude,
    isHot,
    isChina: countryId === MAINLAND_CHINA_ID,
    tourWeight,
  }),
);

/** Where Chinese-opera troupes tour: audiences that read Chinese surtitles. */
const CHINESE_OPERA_CITIES = new Set([341, 342, 343, 344, 345, 346, 347, 348, 349, 350, 351]);

type VenueKind = 'arena' | 'stadium' | 'theatre' | 'hall';

interface Venue {
  id: number;
  cityId: number;
  kind: VenueKind;
  names: Names;
  addressEn: string;
  /** Traditional script for Hong Kong, Macao and Taiwan; Simplified elsewhere, as locals write it. */
  addressZh: string;
  longitude: number;
  latitude: number;
}

const VENUE_ROWS: readonly (readonly [number, VenueKind, string, string, string, string, string, number, number])[] = [
  [
    341,
    'arena',
    'Hong Kong Coliseum',
    '香港體育館',
    '香港体育馆',
    '9 Cheong Wan Road, Hung Hom, Kowloon',
    '九龍紅磡暢運道9號',
    114.1823,
    22.3018,
  ],
  [
    341,
    'arena',
    'AsiaWorld-Arena',
    '亞洲國際博覽館 Arena',
    '亚洲国际博览馆 Arena',
    'AsiaWorld-Expo, Hong Kong International Airport, Lantau Island',
    '大嶼山香港國際機場亞洲國際博覽館',
    113.9421,
    22.3225,
  ],
  [
    341,
    'stadium',
    'Kai Tak Stadium',
    '啟德主場館',
    '启德主场馆',
    '38 Shing Kai Road, Kai Tak, Kowloon',
    '九龍啟德承啟道38號',
    114.1986,
    22.3238,
  ],
  [
    341,
    'hall',
    'Hong Kong Cultural Centre',
    '香港文化中心',
    '香港文化中心',
    '10 Salisbury Road, Tsim Sha Tsui, Kowloon',
    '九龍尖沙咀梳士巴利道10號',
    114.1702,
    22.2936,
  ],
  [
    342,
    'arena',
    'Galaxy Arena',
    '銀河綜藝館',
    '银河综艺馆',
    'Galaxy Macau, Estrada da Baía de Nossa Senhora da Esperança, Cotai',
    '路氹城望德聖母灣大馬路澳門銀河',
    113.553,
    22.148,
  ],
  [
    342,
    'arena',
    'Cotai Arena',
    '金光綜藝館',
    '金光综艺馆',
    'The Venetian Macao, Estrada da Baía de Nossa Senhora da Esperança, Cotai',
    '路氹城望德聖母灣大馬路澳門威尼斯人',
    113.5604,
    22.1453,
  ],
  [
    342,
    'hall',
    'Macao Cultural Centre',
    '澳門文化中心',
    '澳门文化中心',
    'Avenida Xian Xing Hai, NAPE',
    '新口岸冼星海大馬路',
    113.5526,
    22.1876,
  ],
  [
    343,
    'arena',
    'Taipei Arena',
    '台北小巨蛋',
    '台北小巨蛋',
    'No. 2, Sec. 4, Nanjing E. Rd., Songshan Dist., Taipei',
    '台北市松山區南京東路四段2號',
    121.5497,
    25.0516,
  ],
  [
    343,
    'stadium',
    'Taipei Dome',
    '台北大巨蛋',
    '台北大巨蛋',
    'No. 515, Sec. 4, Zhongxiao E. Rd., Xinyi Dist., Taipei',
    '台北市信義區忠孝東路四段515號',
    121.559,
    25.0436,
  ],
  [
    343,
    'theatre',
    'National Theater & Concert Hall',
    '國家兩廳院',
    '国家两厅院',
    'No. 21-1, Zhongshan S. Rd., Zhongzheng Dist., Taipei',
    '台北市中正區中山南路21-1號',
    121.5187,
    25.0363,
  ],
  [
    343,
    'hall',
    'Taipei Music Center',
    '台北流行音樂中心',
    '台北流行音乐中心',
    'No. 99, Sec. 8, Civic Blvd., Nangang Dist., Taipei',
    '台北市南港區市民大道八段99號',
    121.6,
    25.0521,
  ],
  [
    344,
    'arena',
    'Kaohsiung Arena',
    '高雄巨蛋',
    '高雄巨蛋',
    "No. 757, Bo'ai 2nd Rd., Zuoying Dist., Kaohsiung",
    '高雄市左營區博愛二路757號',
    120.3026,
    22.6693,
  ],
  [
    344,
    'hall',
    'Kaohsiung Music Center',
    '高雄流行音樂中心',
    '高雄流行音乐中心',
    "No. 1, Zhen'ai Rd., Yancheng Dist., Kaohsiung",
    '高雄市鹽埕區真愛路1號',
    120.2878,
    22.6216,
  ],
  [
    344,
    'theatre',
    'Weiwuying National Kaohsiung Center for the Arts',
    '衛武營國家藝術文化中心',
    '卫武营国家艺术文化中心',
    'No. 1, Sanduo 1st Rd., Fengshan Dist., Kaohsiung',
    '高雄市鳳山區三多一路1號',
    120.3413,
    22.6222,
  ],
  [
    345,
    'theatre',
    'National Taichung Theater',
    '台中國家歌劇院',
    '台中国家歌剧院',
    'No. 101, Sec. 2, Huilai Rd., Xitun Dist., Taichung',
    '台中市西屯區惠來路二段101號',
    120.6403,
    24.1626,
  ],
  [
    345,
    'stadium',
    'Taichung Intercontinental Baseball Stadium',
    '台中洲際棒球場',
    '台中洲际棒球场',
    'No. 835, Sec. 3, Chongde Rd., Beitun Dist., Taichung',
    '台中市北屯區崇德路三段835號',
    120.6852,
    24.1997,
  ],
  [
    346,
    'arena',
    'Mercedes-Benz Arena',
    '梅賽德斯-奔馳文化中心',
    '梅赛德斯-奔驰文化中心',
    '1200 Expo Avenue, Pudong New Area, Shanghai',
    '上海市浦东新区世博大道1200号',
    121.4926,
    31.1882,
  ],
  [
    346,
    'theatre',
    'Shanghai Grand Theatre',
    '上海大劇院',
    '上海大剧院',
    "300 People's Avenue, Huangpu District, Shanghai",
    '上海市黄浦区人民大道300号',
    121.4706,
    31.2302,
  ],
  [
    346,
    'stadium',
    'Hongkou Football Stadium',
    '虹口足球場',
    '虹口足球场',
    '444 Dongjiangwan Road, Hongkou District, Shanghai',
    '上海市虹口区东江湾路444号',
    121.4813,
    31.2713,
  ],
  [
    346,
    'hall',
    'Shanghai Symphony Hall',
    '上海交響樂團音樂廳',
    '上海交响乐团音乐厅',
    '1380 Middle Fuxing Road, Xuhui District, Shanghai',
    '上海市徐汇区复兴中路1380号',
    121.4461,
    31.2108,
  ],
  [
    347,
    'arena',
    'Cadillac Arena',
    '凱迪拉克中心',
    '凯迪拉克中心',
    '69 Fuxing Road, Haidian District, Beijing',
    '北京市海淀区复兴路69号',
    116.2842,
    39.9065,
  ],
  [
    347,
    'theatre',
    'National Centre for the Performing Arts',
    '國家大劇院',
    '国家大剧院',
    "2 West Chang'an Avenue, Xicheng District, Beijing",
    '北京市西城区西长安街2号',
    116.3893,
    39.9036,
  ],
  [
    347,
    'stadium',
    "Workers' Stadium",
    '工人體育場',
    '工人体育场',
    'Gongti North Road, Chaoyang District, Beijing',
    '北京市朝阳区工人体育场北路',
    116.4472,
    39.9299,
  ],
  [
    348,
    'arena',
    'Guangzhou Gymnasium',
    '廣州體育館',
    '广州体育馆',
    '683 Baiyun Avenue South, Baiyun District, Guangzhou',
    '广州市白云区白云大道南683号',
    113.2774,
    23.179,
  ],
  [
    348,
    'theatre',
    'Guangzhou Opera House',
    '廣州大劇院',
    '广州大剧院',
    '1 Zhujiang West Road, Tianhe District, Guangzhou',
    '广州市天河区珠江西路1号',
    113.3243,
    23.1164,
  ],
  [
    348,
    'stadium',
    'Tianhe Stadium',
    '天河體育中心',
    '天河体育中心',
    '299 Tianhe Road, Tianhe District, Guangzhou',
    '广州市天河区天河路299号',
    113.325,
    23.1395,
  ],
  [
    349,
    'arena',
    'Shenzhen Bay Sports Center',
    '深圳灣體育中心',
    '深圳湾体育中心',
    '3001 Binhai Avenue, Nanshan District, Shenzhen',
    '深圳市南山区滨海大道3001号',
    113.9464,
    22.5171,
  ],
  [
    349,
    'stadium',
    'Shenzhen Universiade Sports Centre',
    '深圳大運中心',
    '深圳大运中心',
    '3001 Longxiang Avenue, Longgang District, Shenzhen',
    '深圳市龙岗区龙翔大道3001号',
    114.2148,
    22.6972,
  ],
  [
    349,
    'theatre',
    'Shenzhen Grand Theater',
    '深圳大劇院',
    '深圳大剧院',
    '5018 Shennan East Road, Luohu District, Shenzhen',
    '深圳市罗湖区深南东路5018号',
    114.1087,
    22.5427,
  ],
  [
    350,
    'arena',
    'Singapore Indoor Stadium',
    '新加坡室內體育館',
    '新加坡室内体育馆',
    '2 Stadium Walk, Singapore 397691',
    '新加坡体育场道2号',
    103.8743,
    1.3006,
  ],
  [
    350,
    'stadium',
    'National Stadium',
    '新加坡國家體育場',
    '新加坡国家体育场',
    '1 Stadium Drive, Singapore 397629',
    '新加坡体育场通道1号',
    103.8747,
    1.3043,
  ],
  [
    350,
    'hall',
    'Esplanade Concert Hall',
    '濱海藝術中心音樂廳',
    '滨海艺术中心音乐厅',
    '1 Esplanade Drive, Singapore 038981',
    '新加坡滨海艺术中心通道1号',
    103.8555,
    1.2898,
  ],
  [
    350,
    'theatre',
    'Sands Theatre',
    '金沙劇院',
    '金沙剧院',
    '10 Bayfront Avenue, Marina Bay Sands, Singapore 018956',
    '新加坡滨海湾金沙湾景道10号',
    103.8597,
    1.2838,
  ],
  [
    351,
    'arena',
    'Axiata Arena',
    '武吉加里爾室內體育館',
    '武吉加里尔室内体育馆',
    'Bukit Jalil National Sports Complex, 57000 Kuala Lumpur',
    '吉隆坡武吉加里尔国家体育中心',
    101.6912,
    3.0546,
  ],
  [
    351,
    'stadium',
    'Bukit Jalil National Stadium',
    '武吉加里爾國家體育場',
    '武吉加里尔国家体育场',
    'Bukit Jalil National Sports Complex, 57000 Kuala Lumpur',
    '吉隆坡武吉加里尔国家体育中心',
    101.6916,
    3.0548,
  ],
  [
    351,
    'hall',
    'Dewan Filharmonik Petronas',
    '國油愛樂廳',
    '国油爱乐厅',
    'Petronas Twin Towers, KLCC, 50088 Kuala Lumpur',
    '吉隆坡城中城国油双峰塔',
    101.7118,
    3.1579,
  ],
  [
    352,
    'arena',
    'IMPACT Arena',
    'IMPACT 體育館',
    'IMPACT 体育馆',
    '99 Popular Road, Muang Thong Thani, Nonthaburi',
    '暖武里府蒙通他尼会展中心',
    100.5469,
    13.9119,
  ],
  [
    352,
    'stadium',
    'Rajamangala National Stadium',
    '拉差曼加拉國家體育場',
    '拉差曼加拉国家体育场',
    'Ramkhamhaeng Road, Bang Kapi, Bangkok',
    '曼谷挽甲必兰甘亨路',
    100.6224,
    13.7554,
  ],
  [
    352,
    'theatre',
    'Thailand Cultural Centre',
    '泰國文化中心',
    '泰国文化中心',
    '14 Thiam Ruam Mit Road, Huai Khwang, Bangkok',
    '曼谷汇权区添鲁密路14号',
    100.57,
    13.766,
  ],
  [
    353,
    'arena',
    'SM Mall of Asia Arena',
    'SM 亞洲商場體育館',
    'SM 亚洲商场体育馆',
    'Seaside Boulevard, Pasay City, Metro Manila',
    '马尼拉帕赛市海滨大道',
    120.9834,
    14.5352,
  ],
  [
    353,
    'arena',
    'Smart Araneta Coliseum',
    '阿拉內塔體育館',
    '阿拉内塔体育馆',
    'General Roxas Avenue, Cubao, Quezon City',
    '奎松市古保罗哈斯将军大道',
    121.0537,
    14.6204,
  ],
  [
    353,
    'theatre',
    'Manila Metropolitan Theater',
    '馬尼拉大都會劇院',
    '马尼拉大都会剧院',
    'Padre Burgos Avenue, Ermita, Manila',
    '马尼拉埃尔米塔布尔戈斯神父大道',
    120.981,
    14.5946,
  ],
  [
    354,
    'arena',
    'Indonesia Arena',
    '印尼體育館',
    '印尼体育馆',
    'Gelora Bung Karno Sports Complex, Senayan, Central Jakarta',
    '雅加达中区塞纳扬朋加诺体育中心',
    106.7998,
    -6.2199,
  ],
  [
    354,
    'stadium',
    'Gelora Bung Karno Stadium',
    '朋加諾體育場',
    '朋加诺体育场',
    'Jl. Pintu Satu Senayan, Central Jakarta',
    '雅加达中区塞纳扬',
    106.8021,
    -6.2186,
  ],
  [
    354,
    'theatre',
    'Jakarta Arts Building',
    '雅加達藝術大廈',
    '雅加达艺术大厦',
    'Jl. Gedung Kesenian No. 1, Pasar Baru, Central Jakarta',
    '雅加达中区巴刹巴鲁艺术大厦路1号',
    106.8337,
    -6.1668,
  ],
  [
    355,
    'arena',
    'Phu Tho Indoor Stadium',
    '富壽室內體育館',
    '富寿室内体育馆',
    '1 Lu Gia Street, District 11, Ho Chi Minh City',
    '胡志明市第十一郡卢家街1号',
    106.6546,
    10.7693,
  ],
  [
    355,
    'theatre',
    'Saigon Opera House',
    '西貢大劇院',
    '西贡大剧院',
    '7 Lam Son Square, District 1, Ho Chi Minh City',
    '胡志明市第一郡林山广场7号',
    106.7031,
    10.7767,
  ],
  [
    355,
    'stadium',
    'Military Zone 7 Stadium',
    '第七軍區體育場',
    '第七军区体育场',
    '202 Hoang Van Thu Street, Tan Binh District, Ho Chi Minh City',
    '胡志明市新平郡黄文树街202号',
    106.6684,
    10.801,
  ],
];

const VENUES: Venue[] = VENUE_ROWS.map(([cityId, kind, en, hant, hans, addressEn, addressZh, longitude, latitude], index) => ({
  id: index + 1,
  cityId,
  kind,
  names: [en, hant, hans],
  addressEn,
  addressZh,
  longitude,
  latitude,
}));

/** A tier's names and its share of the category's top face value, most expensive first. */
type Tier = readonly [en: string, zhHant: string, zhHans: string, share: number];

const TIER_LADDERS: Record<string, readonly Tier[]> = {
  concert: [
    ['VIP', 'VIP 座位', 'VIP 座位', 1],
    ['A Reserve', 'A 區座位', 'A 区座位', 0.77],
    ['B Reserve', 'B 區座位', 'B 区座位', 0.6],
    ['Standing', '站立區', '站立区', 0.55],
    ['C Reserve', 'C 區座位', 'C 区座位', 0.45],
  ],
  festival: [
    ['VIP Day Pass', 'VIP 單日通行證', 'VIP 单日通行证', 1],
    ['Two-Day Pass', '兩日通行證', '两日通行证', 0.8],
    ['Day Pass', '單日通行證', '单日通行证', 0.5],
    ['Early Bird Day Pass', '早鳥單日通行證', '早鸟单日通行证', 0.4],
    ['Student Day Pass', '學生單日通行證', '学生单日通行证', 0.35],
  ],
  theatre: [
    ['Premium Stalls', '貴賓席', '贵宾席', 1],
    ['Stalls', '池座', '池座', 0.8],
    ['Dress Circle', '樓座前排', '楼座前排', 0.65],
    ['Upper Circle', '樓座', '楼座', 0.45],
    ['Restricted View', '視線受限座位', '视线受限座位', 0.3],
  ],
  sports: [
    ['Courtside', '場邊席', '场边席', 1],
    ['Club Seats', '會所座位', '会所座位', 0.75],
    ['Lower Bowl', '下層座位', '下层座位', 0.6],
    ['Family Zone', '家庭區', '家庭区', 0.4],
    ['Upper Bowl', '上層座位', '上层座位', 0.35],
  ],
  entry: [
    ['Family Pack (2+2)', '家庭套票(2大2小)', '家庭套票(2大2小)', 1],
    ['Express Entry', '快速入場票', '快速入场票', 0.55],
    ['Adult', '成人票', '成人票', 0.35],
    ['Concession', '優惠票', '优惠票', 0.25],
    ['Child', '兒童票', '儿童票', 0.22],
  ],
};

interface Category {
  id: number;
  slug: string;
  names: Names;
  pinyin: string;
  venueKinds: readonly VenueKind[];
  ladder: readonly Tier[];
  /** Top face value relative to a headline concert. */
  priceFactor: number;
  title: Names;
  about: Names;
}

/** One category as seed-categories.json writes it. */
interface CategoryRow {
  id: number;
  slug: string;
  names: string[];
  pinyin: string;
  venueKinds: string[];
  ladder: keyof typeof TIER_LADDERS;
  priceFactor: number;
  title: 'tour' | 'show';
  about: string[];
}

const TOUR_TITLE: Names = [
  '{artist} {show} World Tour – {city}',
  '{artist}《{show}》世界巡迴演唱會 – {city}站',
  '{artist}《{show}》世界巡回演唱会 – {city}站',
];
const SHOW_TITLE: Names = ['{artist}: {show} – {city}', '{artist}《{show}》 – {city}', '{artist}《{show}》 – {city}'];

function threeScripts(texts: string[]): Names {
  const [en, zhHant, zhHans] = texts;
  if (texts.length !== 3) throw new Error(`Expected English, Traditional and Simplified texts, got ${texts.length}`);
  return [en, zhHant, zhHans];
}

/** The categories' names and texts are data (seed-categories.json); here they get their ladder and title template. */
const TITLES: Record<CategoryRow['title'], Names> = { tour: TOUR_TITLE, show: SHOW_TITLE };
const CATEGORIES: Category[] = (categoryRows as CategoryRow[]).map((row) => ({
  ...row,
  names: threeScripts(row.names),
  venueKinds: row.venueKinds as VenueKind[],
  ladder: TIER_LADDERS[row.ladder],
  title: TITLES[row.title],
  about: threeScripts(row.about),
}));

const CATEGORY_BY_SLUG = new Map(CATEGORIES.map((category) => [category.slug, category]));

/** Closing sentences, one drawn per activity so descriptions do not all read alike. */
const CLOSING_LINES: readonly Names[] = [
  [
    'All tickets are listed by verified sellers and covered by the platform guarantee.',
    '所有門票均由認證賣家提供，並受平台保障。',
    '所有门票均由认证卖家提供，并受平台保障。',
  ],
  [
    'Seats are limited, so book early to secure the best view.',
    '座位有限，請盡早購票以確保最佳位置。',
    '座位有限，请尽早购票以确保最佳位置。',
  ],
  [
    'Please arrive 30 minutes early; latecomers will be admitted at a suitable break.',
    '請提前三十分鐘入場，遲到觀眾須待適當時候方可進場。',
    '请提前三十分钟入场，迟到观众须待适当时候方可进场。',
  ],
];

const REAL_NAME_LINE: Names = [
  'Real-name entry: each ticket is issued to a named attendee holding a valid ID.',
  '本場活動實行實名制入場，每張門票須登記持有效證件的觀眾資料。',
  '本场活动实行实名制入场，每张门票须登记持有效证件的观众资料。',
];

interface Artist {
  id: number;
  category: Category;
  names: Names;
  pinyin: string;
  shows: readonly Names[];
}

// category, names, pinyin of the Chinese name (empty when it has none), two productions each
const ARTIST_ROWS: readonly (readonly [string, string, string, string, string, readonly Names[]])[] = [
  [
    'concerts',
    'Kelvin Lau',
    '劉嘉朗',
    '刘嘉朗',
    'liu jia lang',
    [
      ['MIDNIGHT RUNNER', '午夜狂奔', '午夜狂奔'],
      ['BACK TO HARBOUR', '回到海港', '回到海港'],
    ],
  ],
  [
    'concerts',
    'Vivian Cheung',
    '張穎詩',
    '张颖诗',
    'zhang ying shi',
    [
      ['BLOOM & BREATHE', '花與呼吸', '花与呼吸'],
      ['LETTERS TO YOU', '寫給你的信', '写给你的信'],
    ],
  ],
  [
    'concerts',
    'Jason Wong',
    '黃子軒',
    '黄子轩',
    'huang zi xuan',
    [
      ['ECHOES', '回聲', '回声'],
      ['NEON HEART', '霓虹之心', '霓虹之心'],
    ],
  ],
  [
    'concerts',
    'Mandy Ho',
    '何曉晴',
    '何晓晴',
    'he xiao qing',
    [
      ['SUNLIT DAYS', '晴日', '晴日'],
      ['AFTER THE RAIN', '雨過天晴', '雨过天晴'],
    ],
  ],
  [
    'concerts',
    'Ryan Tse',
    '謝俊鋒',
    '谢俊锋',
    'xie jun feng',
    [
      ['FEARLESS YOUTH', '無畏青春', '无畏青春'],
      ['GRAVITY', '引力', '引力'],
    ],
  ],
  [
    'concerts',
    'Crystal Yeung',
    '楊雪兒',
    '杨雪儿',
    'yang xue er',
    [
      ['FIRST SNOW', '初雪', '初雪'],
      ['CRYSTAL CLEAR', '透明時光', '透明时光'],
    ],
  ],
  [
    'concerts',
    'Night Tram',
    '夜電車',
    '夜电车',
    'ye dian che',
    [
      ['LAST STOP', '終點站', '终点站'],
      ['TRAM LINES', '電車路軌', '电车路轨'],
    ],
  ],
  [
    'concerts',
    'Harbour Lights',
    '維港燈火',
    '维港灯火',
    'wei gang deng huo',
    [
      ['CITY OF LIGHTS', '不夜城', '不夜城'],
      ['TIDAL', '潮汐', '潮汐'],
    ],
  ],
  [
    'concerts',
    'Lin Yu-chen',
    '林語辰',
    '林语辰',
    'lin yu chen',
    [
      ['STARLIGHT JOURNEY', '星光旅程', '星光旅程'],
      ['QUIET STORM', '寧靜風暴', '宁静风暴'],
    ],
  ],
  [
    'concerts',
    'Tsai Ming-hsuan',
    '蔡明軒',
    '蔡明轩',
    'cai ming xuan',
    [
      ['TEN YEARS', '十年之約', '十年之约'],
      ['OCEAN DRIVE', '海岸線', '海岸线'],
    ],
  ],
  [
    'concerts',
    'Hsu Ya-ting',
    '許雅婷',
    '许雅婷',
    'xu ya ting',
    [
      ['DEAR ME', '親愛的我', '亲爱的我'],
      ['FIREFLY', '螢火', '萤火'],
    ],
  ],
  [
    'concerts',
    'Jiang Yifan',
    '江一帆',
    '江一帆',
    'jiang yi fan',
    [
      ['SET SAIL', '揚帆', '扬帆'],
      ['NORTHBOUND', '向北', '向北'],
    ],
  ],
  [
    'concerts',
    'Zhao Xinyue',
    '趙欣悅',
    '赵欣悦',
    'zhao xin yue',
    [
      ['MOONRISE', '月升', '月升'],
      ['JOY RIDE', '悅動', '悦动'],
    ],
  ],
  [
    'concerts',
    'Sun Haoran',
    '孫浩然',
    '孙浩然',
    'sun hao ran',
    [
      ['VAST SKIES', '浩瀚', '浩瀚'],
      ['ROAD HOME', '歸途', '归途'],
    ],
  ],
  [
    'concerts',
    'Blue Whale Band',
    '藍鯨樂團',
    '蓝鲸乐团',
    'lan jing yue tuan',
    [
      ['DEEP BLUE', '深藍', '深蓝'],
      ['WHALE SONG', '鯨歌', '鲸歌'],
    ],
  ],
  [
    'concerts',
    'NOVA9',
    'NOVA9',
    'NOVA9',
    '',
    [
      ['SUPERNOVA', 'SUPERNOVA', 'SUPERNOVA'],
      ['ORBIT', 'ORBIT', 'ORBIT'],
    ],
  ],
  [
    'concerts',
    'LUMINA',
    'LUMINA',
    'LUMINA',
    '',
    [
      ['GLOW UP', 'GLOW UP', 'GLOW UP'],
      ['PRISM', 'PRISM', 'PRISM'],
    ],
  ],
  [
    'concerts',
    'Kim Ha-eun',
    '金夏恩',
    '金夏恩',
    'jin xia en',
    [
      ['SUMMER LETTER', '夏日來信', '夏日来信'],
      ['HAEUN', 'HAEUN', 'HAEUN'],
    ],
  ],
  [
    'concerts',
    'The Midnight Arcade',
    '午夜街機',
    '午夜街机',
    'wu ye jie ji',
    [
      ['PIXEL HEARTS', '像素之心', '像素之心'],
      ['GAME OVER', '遊戲終結', '游戏终结'],
    ],
  ],
  [
    'concerts',
    'Olivia Hart',
    '奧莉維亞·哈特',
    '奥莉维亚·哈特',
    'ao li wei ya ha te',
    [
      ['GOLDEN HOUR', '黃金時刻', '黄金时刻'],
      ['WILDFLOWER', '野花', '野花'],
    ],
  ],
  [
    'concerts',
    'Northern Tides',
    '北潮樂隊',
    '北潮乐队',
    'bei chao yue dui',
    [
      ['UNDERTOW', '暗湧', '暗涌'],
      ['POLAR NIGHT', '極夜', '极夜'],
    ],
  ],
  [
    'concerts',
    'Haruka Aoyama',
    '青山遙',
    '青山遥',
    'qing shan yao',
    [
      ['SAKURA DRIVE', '櫻花大道', '樱花大道'],
      ['BLUE HOUR', '藍調時刻', '蓝调时刻'],
    ],
  ],
  [
    'concerts',
    'Ploy Chanida',
    '查妮達',
    '查妮达',
    'cha ni da',
    [
      ['BANGKOK NIGHTS', '曼谷之夜', '曼谷之夜'],
      ['MONSOON', '季風', '季风'],
    ],
  ],
  [
    'concerts',
    'Park Jun-ho',
    '朴俊浩',
    '朴俊浩',
    'piao jun hao',
    [
      ['MOONLIGHT SERENADE', '月光小夜曲', '月光小夜曲'],
      ['RUNWAY', '跑道', '跑道'],
    ],
  ],
  [
    'musicals-theatre',
    'Broadway Nights Company',
    '百老匯之夜劇團',
    '百老汇之夜剧团',
    'bai lao hui zhi ye ju tuan',
    [
      ['The Harbour Phantom', '海港魅影', '海港魅影'],
      ['The Lantern Keeper', '守燈人', '守灯人'],
    ],
  ],
  [
    'musicals-theatre',
    'West End Touring Company',
    '倫敦西區巡演劇團',
    '伦敦西区巡演剧团',
    'lun dun xi qu xun yan ju tuan',
    [
      ["The Clockmaker's Daughter", '鐘錶匠的女兒', '钟表匠的女儿'],
      ['Midsummer in Verona', '維羅納仲夏', '维罗纳仲夏'],
    ],
  ],
  [
    'musicals-theatre',
    'Spotlight Repertory',
    '聚光劇團',
    '聚光剧团',
    'ju guang ju tuan',
    [
      ['The Last Tram Home', '尾班電車', '尾班电车'],
      ['Tea House Tales', '茶樓故事', '茶楼故事'],
    ],
  ],
  [
    'musicals-theatre',
    'Formosa Musical Theatre',
    '福爾摩沙音樂劇團',
    '福尔摩沙音乐剧团',
    'fu er mo sha yin yue ju tuan',
    [
      ['Rain on Dihua Street', '迪化街的雨', '迪化街的雨'],
      ['Island Dreams', '島嶼之夢', '岛屿之梦'],
    ],
  ],
  [
    'sports',
    'Harbour City Dragons',
    '港城飛龍',
    '港城飞龙',
    'gang cheng fei long',
    [
      ['Asia Basketball Super Cup', '亞洲籃球超級盃', '亚洲篮球超级杯'],
      ['Dragons vs All-Stars', '飛龍對明星隊', '飞龙对明星队'],
    ],
  ],
  [
    'sports',
    'Red Lions FC',
    '紅獅足球會',
    '红狮足球会',
    'hong shi zu qiu hui',
    [
      ['Pre-season Asia Tour', '季前亞洲巡迴賽', '季前亚洲巡回赛'],
      ['Champions Friendly', '冠軍友誼賽', '冠军友谊赛'],
    ],
  ],
  [
    'sports',
    'Asia Fight Night',
    '亞洲格鬥之夜',
    '亚洲格斗之夜',
    'ya zhou ge dou zhi ye',
    [
      ['Title Showdown', '王者對決', '王者对决'],
      ['Rising Stars', '新星之戰', '新星之战'],
    ],
  ],
  [
    'sports',
    'Pacific Tennis Classic',
    '太平洋網球精英賽',
    '太平洋网球精英赛',
    'tai ping yang wang qiu jing ying sai',
    [
      ['Legends Exhibition', '傳奇表演賽', '传奇表演赛'],
      ["Women's Invitational", '女子邀請賽', '女子邀请赛'],
    ],
  ],
  [
    'exhibitions',
    'Lumen Studio',
    '光影工作室',
    '光影工作室',
    'guang ying gong zuo shi',
    [
      ['Immersive Monet', '沉浸式莫奈', '沉浸式莫奈'],
      ['Infinite Garden', '無限花園', '无限花园'],
    ],
  ],
  [
    'exhibitions',
    'Dino Discovery',
    '恐龍大發現',
    '恐龙大发现',
    'kong long da fa xian',
    [
      ['Age of Giants', '巨獸時代', '巨兽时代'],
      ['Jurassic Night Walk', '侏羅紀夜行', '侏罗纪夜行'],
    ],
  ],
  [
    'exhibitions',
    'Future Play Lab',
    '未來遊樂實驗室',
    '未来游乐实验室',
    'wei lai you le shi yan shi',
    [
      ['Robot Planet', '機器人星球', '机器人星球'],
      ['Space Odyssey', '太空漫遊', '太空漫游'],
    ],
  ],
  [
    'family-kids',
    'Bubble Circus',
    '泡泡馬戲團',
    '泡泡马戏团',
    'pao pao ma xi tuan',
    [
      ['Big Top Wonders', '大帳篷奇觀', '大帐篷奇观'],
      ['Circus on Ice', '冰上馬戲', '冰上马戏'],
    ],
  ],
  [
    'family-kids',
    'Little Panda Puppet Theatre',
    '小熊貓木偶劇場',
    '小熊猫木偶剧场',
    'xiao xiong mao mu ou ju chang',
    [
      ['The Moon Rabbit', '月兔', '月兔'],
      ['Jungle Friends', '森林好朋友', '森林好朋友'],
    ],
  ],
  [
    'family-kids',
    'Magic Max',
    '魔術師麥克斯',
    '魔术师麦克斯',
    'mo shu shi mai ke si',
    [
      ['Grand Illusions', '奇幻魔術秀', '奇幻魔术秀'],
      ['Magic School', '魔法學堂', '魔法学堂'],
    ],
  ],
  [
    'comedy',
    'Dicky Ma',
    '馬子強',
    '马子强',
    'ma zi qiang',
    [
      ['Talk Too Much', '講多錯多', '讲多错多'],
      ['Middle-Aged Crisis', '中年危機', '中年危机'],
    ],
  ],
  [
    'comedy',
    'Wendy Kwan',
    '關慧文',
    '关慧文',
    'guan hui wen',
    [
      ['Mother Knows Best', '媽媽說了算', '妈妈说了算'],
      ['Single and Fabulous', '單身萬歲', '单身万岁'],
    ],
  ],
  [
    'comedy',
    'Leo Tan',
    '陳立恆',
    '陈立恒',
    'chen li heng',
    [
      ['Lost in Translation', '詞不達意', '词不达意'],
      ['Late Night Laughs', '深夜笑談', '深夜笑谈'],
    ],
  ],
  [
    'classical-opera',
    'Victoria Harbour Philharmonic',
    '維港愛樂樂團',
    '维港爱乐乐团',
    'wei gang ai yue yue tuan',
    [
      ['Mahler Symphony No. 5', '馬勒第五交響曲', '马勒第五交响曲'],
      ['New Year Gala', '新年音樂會', '新年音乐会'],
    ],
  ],
  [
    'classical-opera',
    'Formosa Symphony Orchestra',
    '福爾摩沙交響樂團',
    '福尔摩沙交响乐团',
    'fu er mo sha jiao xiang yue tuan',
    [
      ['The Beethoven Cycle', '貝多芬交響曲全集', '贝多芬交响曲全集'],
      ['Film Music Night', '電影音樂之夜', '电影音乐之夜'],
    ],
  ],
  [
    'classical-opera',
    'Chen Guohua',
    '陳國華',
    '陈国华',
    'chen guo hua',
    [
      ['Chopin Piano Recital', '蕭邦鋼琴獨奏會', '肖邦钢琴独奏会'],
      ['Goldberg Variations', '哥德堡變奏曲', '哥德堡变奏曲'],
    ],
  ],
  [
    'classical-opera',
    'Shanghai Lyric Opera',
    '上海抒情歌劇院',
    '上海抒情歌剧院',
    'shang hai shu qing ge ju yuan',
    [
      ['La Traviata', '茶花女', '茶花女'],
      ['Turandot', '杜蘭朵', '图兰朵'],
    ],
  ],
  [
    'festivals',
    'Neon Jungle',
    '霓虹森林',
    '霓虹森林',
    'ni hong sen lin',
    [
      ['Tropical Bass Festival', '熱帶低音音樂節', '热带低音音乐节'],
      ['Sunset Beach Party', '日落海灘派對', '日落海滩派对'],
    ],
  ],
  [
    'festivals',
    'DJ Kairo',
    'DJ Kairo',
    'DJ Kairo',
    '',
    [
      ['Pulse Festival', '脈動音樂節', '脉动音乐节'],
      ['Skyline Sessions', '天際線派對', '天际线派对'],
    ],
  ],
  [
    'festivals',
    'Island Sound Collective',
    '島嶼之聲',
    '岛屿之声',
    'dao yu zhi sheng',
    [
      ['Island Sound Festival', '島嶼之聲音樂節', '岛屿之声音乐节'],
      ['Folk by the Sea', '海邊民謠祭', '海边民谣祭'],
    ],
  ],
  [
    'dance',
    'Jade Dance Theatre',
    '翡翠舞蹈劇場',
    '翡翠舞蹈剧场',
    'fei cui wu dao ju chang',
    [
      ['Swan Lake', '天鵝湖', '天鹅湖'],
      ['The Nutcracker', '胡桃夾子', '胡桃夹子'],
    ],
  ],
  [
    'dance',
    'City Contemporary Ballet',
    '都會當代芭蕾舞團',
    '都会当代芭蕾舞团',
    'du hui dang dai ba lei wu tuan',
    [
      ['City Garden', '城市花園', '城市花园'],
      ['Red Thread', '紅線', '红线'],
    ],
  ],
  [
    'dance',
    'Street Motion Crew',
    '街舞動力',
    '街舞动力',
    'jie wu dong li',
    [
      ['Battle Ground', '鬥舞場', '斗舞场'],
      ['Rhythm Nation', '節奏國度', '节奏国度'],
    ],
  ],
  [
    'chinese-opera',
    'Golden Phoenix Cantonese Opera Troupe',
    '金鳳凰粵劇團',
    '金凤凰粤剧团',
    'jin feng huang yue ju tuan',
    [
      ['The Purple Hairpin', '紫釵記', '紫钗记'],
      ['Princess Chang Ping', '帝女花', '帝女花'],
    ],
  ],
  [
    'chinese-opera',
    'Kunqu Heritage Ensemble',
    '崑曲傳承劇團',
    '昆曲传承剧团',
    'kun qu chuan cheng ju tuan',
    [
      ['The Peony Pavilion', '牡丹亭', '牡丹亭'],
      ['The Palace of Eternal Youth', '長生殿', '长生殿'],
    ],
  ],
  [
    'chinese-opera',
    'Pear Garden Peking Opera',
    '梨園京劇團',
    '梨园京剧团',
    'li yuan jing ju tuan',
    [
      ['Farewell My Concubine', '霸王別姬', '霸王别姬'],
      ['The Drunken Concubine', '貴妃醉酒', '贵妃醉酒'],
    ],
  ],
];

const ARTISTS: Artist[] = ARTIST_ROWS.map(([slug, en, hant, hans, pinyin, shows], index) => {
  const category = CATEGORY_BY_SLUG.get(slug);
  if (!category) throw new Error(`Unknown category ${slug}`);
  return { id: index + 1, category, names: [en, hant, hans], pinyin, shows };
});

// nickname, home city, language, currency
/**
 * The demo sellers' shared password, so `npm run demo:fulfil` and the tests sign in as a seller
 * without an email code (codes are limited to one a minute per address). Only the local demo
 * database holds these accounts; production is never seeded.
 */
export const DEMO_SELLER_PASSWORD = 'DemoSeller2026';
/** PBKDF2-SHA256 of DEMO_SELLER_PASSWORD (100,000 iterations, this salt), checked by tests/unit/seed.test.ts. */
export const DEMO_SELLER_PASSWORD_HASH = {
  hash: 'HCOelArX9A0Q1WFCO1YZax1dFk3ipvTpcguwd-Rxv5M',
  salt: 'dGlja2V0d2luZy1kZW1vLQ',
  iterations: 100_000,
};

const SELLERS = [
  ['Harbour Tix', 341, 'zh-HK', 'HKD'],
  ['Kowloon Ticket Hub', 341, 'zh-HK', 'HKD'],
  ['Lion City Seats', 350, 'en', 'SGD'],
  ['Formosa Fan Exchange', 343, 'zh-TW', 'TWD'],
  ['Pearl River Tickets', 348, 'zh-CN', 'CNY'],
  ['Cotai Seat Swap', 342, 'zh-HK', 'MOP'],
  ['Bangkok Front Row', 352, 'en', 'THB'],
  ['Manila Stage Pass', 353, 'en', 'PHP'],
  ['KL Gig Exchange', 351, 'en', 'MYR'],
  ['Jakarta Live Tix', 354, 'en', 'IDR'],
  ['Saigon Show Seats', 355, 'en', 'VND'],
  ['Shanghai Encore', 346, 'zh-CN', 'CNY'],
] as const;

/** Artists whose names are offered as hot search words, in display order. */
const HOT_KEYWORD_ARTIST_IDS = [1, 9, 16, 2, 20, 25, 52, 46];

/** Home-page banners per city. */
const BANNER_COUNTS: readonly (readonly [cityId: number, count: number])[] = [
  [341, 5],
  [343, 3],
  [346, 2],
  [350, 3],
];

// ---------------------------------------------------------------------------------------------
// Generation

interface Session {
  startsAt: number;
  endsAt: number;
}

interface Activity {
  id: number;
  artist: Artist;
  show: Names;
  city: City;
  venue: Venue;
  soon: boolean;
  status: number;
  isHot: boolean;
  isRare: boolean;
  isSoldOut: boolean;
  realNameRequired: boolean;
  numMax: number;
  sessions: Session[];
  tiers: readonly Tier[];
  saleStartsAt: number;
  createdAt: number;
}

/** Fills `{name}` placeholders. */
function fill(template: string, values: Record<string, string>): string {
  return template.replace(/\{(\w+)\}/g, (_, key: string) => values[key]);
}

/** Localized strings built from one template per script. */
function localize(templates: Names, parts: Record<string, Names>): Names {
  const script = (index: 0 | 1 | 2) =>
    fill(templates[index], Object.fromEntries(Object.entries(parts).map(([key, names]) => [key, names[index]])));
  return [script(0), script(1), script(2)];
}

/** Epoch ms of a local wall-clock time, `day` days after the reference UTC midnight. */
function localTime(referenceTime: number, city: City, day: number, minutesOfDay: number): number {
  return referenceTime + day * DAY + (minutesOfDay - city.utcOffset * 60) * MINUTE;
}

/** Each production tours 2–5 cities; Hong Kong is weighted heaviest. */
function planTourStops(rand: Random): { artist: Artist; show: Names; city: City }[] {
  const stops = ARTISTS.flatMap((artist) =>
    artist.shows.flatMap((show) => {
      const weight = (city: City) => (artist.category.slug === 'chinese-opera' && !CHINESE_OPERA_CITIES.has(city.id) ? 0 : city.tourWeight);
      return rand.weightedSample(CITIES, rand.int(2, 5), weight).map((city) => ({ artist, show, city }));
    }),
  );
  return rand.shuffle(stops);
}

/** Picks a venue of a kind that suits the category, falling back to any venue in the city. */
function pickVenue(rand: Random, city: City, category: Category): Venue {
  const inCity = VENUES.filter((venue) => venue.cityId === city.id);
  const suitable = inCity.filter((venue) => category.venueKinds.includes(venue.kind));
  return rand.pick(suitable.length > 0 ? suitable : inCity);
}

/**
 * Chooses the first session day within [first, last], moving off nights the venue is already booked
 * (two shows in one hall on one night would look wrong), and books the chosen nights.
 */
function bookNights(booked: Set<string>, venue: Venue, offsets: number[], first: number, last: number, preferred: number): number {
  const span = last - first + 1;
  const isFree = (day: number) => offsets.every((offset) => !booked.has(`${venue.id}:${day + offset}`));
  let start = preferred;
  for (let step = 0; step < span; step++) {
    const day = first + ((preferred - first + step) % span);
    if (isFree(day)) {
      start = day;
      break;
    }
  }
  for (const offset of offsets) booked.add(`${venue.id}:${start + offset}`);
  return start;
}

function buildActivities(rand: Random, referenceTime: number): Activity[] {
  const stops = planTourStops(rand);
  const soonQuota = new Map(
    CITIES.map((city) => {
      const count = stops.filter((stop) => stop.city.id === city.id).length;
      return [city.id, city.id === DEFAULT_CITY_ID ? HONG_KONG_SOON_COUNT : Math.max(4, Math.ceil(count / 4))];
    }),
  );
  const booked = new Set<string>();

  return stops.map(({ artist, show, city }, index) => {
    const quota = soonQuota.get(city.id) ?? 0;
    const soon = quota > 0;
    soonQuota.set(city.id, quota - 1);

    const venue = pickVenue(rand, city, artist.category);
    const sessionCount = rand.pick([1, 1, 2, 2, 3, 4]);
    const gap = rand.pick([1, 1, 2, 7]);
    const offsets = Array.from({ length: sessionCount }, (_, i) => i * gap);
    const lastStart = HORIZON_DAYS - offsets[offsets.length - 1];
    // Later dates thin out, as a real calendar does.
    const preferred = soon ? rand.int(1, SOON_DAYS) : 1 + Math.floor(rand.next() ** 1.15 * lastStart);
    const firstDay = bookNights(booked, venue, offsets, 1, soon ? SOON_DAYS : lastStart, preferred);

    const minutesOfDay = rand.pick([19 * 60 + 30, 20 * 60]);
    const duration = rand.pick([120, 150, 180]) * MINUTE;
    const sessions = offsets.map((offset) => {
      const startsAt = localTime(referenceTime, city, firstDay + offset, minutesOfDay);
      return { startsAt, endsAt: startsAt + duration };
    });

    const statusDraw = rand.next();
    const status = !soon && firstDay > 40 && statusDraw < 0.3 ? 6 : statusDraw > 0.88 ? 4 : 1;
    const saleStartsAt =
      status === 6 ? localTime(referenceTime, city, rand.int(3, 25), 10 * 60) : localTime(referenceTime, city, -rand.int(7, 60), 10 * 60);
    // Not-yet-on-sale events are announced already, so every activity exists before the reference time.
    const createdAt = Math.min(saleStartsAt, referenceTime) - rand.int(5, 30) * DAY - rand.int(0, 1439) * MINUTE;

    const ladder = artist.category.ladder;
    const tierCount = rand.int(2, ladder.length);
    const tiers = rand
      .shuffle(ladder.map((_, i) => i))
      .slice(0, tierCount)
      .sort((a, b) => a - b)
      .map((i) => ladder[i]);

    return {
      id: FIRST_ACTIVITY_ID + index,
      artist,
      show,
      city,
      venue,
      soon,
      status,
      isHot: false,
      isRare: false,
      isSoldOut: false,
      realNameRequired: rand.chance(city.isChina ? 0.3 : 0.02),
      numMax: rand.int(4, 8),
      sessions,
      tiers,
      saleStartsAt,
      createdAt,
    };
  });
}

/** Marks `hongKong` Hong Kong activities and `elsewhere` others, chosen at random. */
function markSome(
  rand: Random,
  activities: Activity[],
  counts: { hongKong: number; elsewhere: number },
  mark: (activity: Activity) => void,
): void {
  const inHongKong = activities.filter((activity) => activity.city.id === DEFAULT_CITY_ID);
  const elsewhere = activities.filter((activity) => activity.city.id !== DEFAULT_CITY_ID);
  rand.shuffle(inHongKong).slice(0, counts.hongKong).forEach(mark);
  rand.shuffle(elsewhere).slice(0, counts.elsewhere).forEach(mark);
}

function markHighlights(rand: Random, activities: Activity[]): void {
  markSome(rand, activities, HOT_COUNT, (activity) => (activity.isHot = true));
  markSome(rand, activities, RARE_COUNT, (activity) => (activity.isRare = true));
  // Sold-out cards need on-sale events; two starting soon in Hong Kong so the home page shows the tag.
  const onSale = activities.filter((activity) => activity.status === 1);
  const soonInHongKong = onSale.filter((activity) => activity.soon && activity.city.id === DEFAULT_CITY_ID);
  const others = onSale.filter((activity) => activity.city.id !== DEFAULT_CITY_ID);
  for (const activity of [
    ...rand.shuffle(soonInHongKong).slice(0, SOLD_OUT_COUNT.hongKongSoon),
    ...rand.shuffle(others).slice(0, SOLD_OUT_COUNT.elsewhere),
  ]) {
    activity.isSoldOut = true;
  }
}

/** Rounds a major-unit amount to the currency's price step and returns minor units. */
function toMinor(currency: CurrencyCode, major: number): number {
  const { minorUnit, step } = CURRENCY.get(currency)!;
  return Math.max(step, Math.round(major / step) * step) * minorUnit;
}

/** A comma-separated, never empty subset of the delivery types, in their canonical order. */
function pickDeliveryTypes(rand: Random): string {
  const odds: Record<DeliveryType, number> = { e_ticket: 0.7, on_site: 0.35, self_pickup: 0.3, courier: 0.4 };
  const chosen = DELIVERY_TYPES.filter((type) => rand.chance(odds[type]));
  return (chosen.length > 0 ? chosen : ['e_ticket']).join(',');
}

/** Resale price factor: about a quarter of listings undercut face value, rare events rarely do. */
function resaleFactor(rand: Random, activity: Activity): number {
  if (rand.chance(activity.isRare ? 0.08 : 0.28)) return 0.6 + rand.next() * 0.3;
  const premium = activity.isRare ? 0.3 + rand.next() * 1.1 : 0.1 + rand.next() ** 2 * 1.4;
  return 1 + premium;
}

function makeInviteCode(rand: Random, taken: Set<string>): string {
  const alphabet = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
  let code = '';
  while (code === '' || taken.has(code)) {
    code = Array.from({ length: 8 }, () => rand.pick([...alphabet])).join('');
  }
  taken.add(code);
  return code;
}

function buildUsers(rand: Random, referenceTime: number): SeedRow[] {
  const inviteCodes = new Set<string>();
  return SELLERS.map(([nickname, cityId, languageCode, currencyCode], index) => ({
    id: index + 1,
    phone_country_code: null,
    phone: null,
    email: `seller${index + 1}@demo.ticketwing.test`,
    nickname,
    password_hash: DEMO_SELLER_PASSWORD_HASH.hash,
    password_salt: DEMO_SELLER_PASSWORD_HASH.salt,
    password_iterations: DEMO_SELLER_PASSWORD_HASH.iterations,
    is_seller: 1,
    is_operator: 0,
    invite_code: makeInviteCode(rand, inviteCodes),
    invited_by: null,
    language_code: languageCode,
    currency_code: currencyCode,
    city_id: cityId,
    // Sellers predate every activity, so no listing is older than its seller.
    created_at: referenceTime - rand.int(400, 900) * DAY - rand.int(0, 1439) * MINUTE,
  }));
}

function activityRow(rand: Random, activity: Activity): SeedRow {
  const { artist, show, city, venue } = activity;
  const category = artist.category;
  const parts = { artist: artist.names, show, city: city.names, venue: venue.names };
  const name = localize(category.title, parts);
  const about = localize(category.about, parts);
  const closing = activity.realNameRequired ? REAL_NAME_LINE : rand.pick(CLOSING_LINES);
  const description = (index: 0 | 1 | 2) => `${about[index]}${index === 0 ? ' ' : ''}${closing[index]}`;
  return {
    id: activity.id,
    category_id: category.id,
    city_id: city.id,
    venue_id: venue.id,
    artist_id: artist.id,
    name_en: name[0],
    name_zh_hant: name[1],
    name_zh_hans: name[2],
    description_en: description(0),
    description_zh_hant: description(1),
    description_zh_hans: description(2),
    poster: posterPath('activity', activity.id),
    status: activity.status,
    is_hot: activity.isHot ? 1 : 0,
    is_rare: activity.isRare ? 1 : 0,
    real_name_required: activity.realNameRequired ? 1 : 0,
    num_min: 1,
    num_max: activity.numMax,
    starts_at: activity.sessions[0].startsAt,
    ends_at: activity.sessions[activity.sessions.length - 1].startsAt,
    sale_starts_at: activity.saleStartsAt,
    created_at: activity.createdAt,
  };
}

/** Sessions, their tiers and the sellers' listings for every activity. */
function buildInventory(rand: Random, activities: Activity[], referenceTime: number, sellerIds: number[]) {
  const sessions: SeedRow[] = [];
  const tiers: SeedRow[] = [];
  const listings: SeedRow[] = [];
  for (const activity of activities) {
    const { currency } = activity.city;
    const { topFace, minorUnit } = CURRENCY.get(currency)!;
    for (const session of activity.sessions) {
      const sessionId = sessions.length + 1;
      sessions.push({
        id: sessionId,
        activity_id: activity.id,
        starts_at: session.startsAt,
        ends_at: session.endsAt,
        status: 'scheduled',
        changed_at: null,
        original_starts_at: null,
        refund_until: null,
        high_demand: 0,
        // The default cap per account (ACCOUNT_TICKET_CAP).
        account_ticket_cap: null,
      });
      activity.tiers.forEach(([en, hant, hans, share], sort) => {
        const tierId = tiers.length + 1;
        const faceValue = toMinor(currency, topFace * activity.artist.category.priceFactor * share);
        tiers.push({
          id: tierId,
          session_id: sessionId,
          name_en: en,
          name_zh_hant: hant,
          name_zh_hans: hans,
          face_value: faceValue,
          currency,
          sort: sort + 1,
          high_demand: 0,
        });
        for (const sellerId of rand.shuffle(sellerIds).slice(0, rand.int(2, 4))) {
          const quantityTotal = 1 + Math.floor(rand.next() ** 2 * 12);
          const quantityAvailable = activity.isSoldOut ? 0 : quantityTotal;
          listings.push({
            id: listings.length + 1,
            tier_id: tierId,
            seller_id: sellerId,
            price: toMinor(currency, (faceValue / minorUnit) * resaleFactor(rand, activity)),
            currency,
            quantity_total: quantityTotal,
            quantity_available: quantityAvailable,
            seating: rand.chance(0.7) ? 'together' : 'not_adjacent',
            delivery_types: pickDeliveryTypes(rand),
            status: quantityAvailable === 0 ? 'sold_out' : 'active',
            source_order_id: null,
            created_at: referenceTime - Math.floor(rand.next() * ((referenceTime - activity.createdAt) / MINUTE)) * MINUTE,
          });
        }
      });
    }
  }
  return { sessions, tiers, listings };
}

/**
 * The demo's hot on-sale: the first session of the Hong Kong show whose sale opens
 * soonest, so its waiting room shows the early group until the opening and the line after it. A show
 * not yet on sale, so that no journey buying on-sale tickets meets its waiting room.
 */
function markHighDemand(activities: Activity[], sessions: SeedRow[]): void {
  const [hot] = activities
    .filter((activity) => activity.city.id === DEFAULT_CITY_ID && activity.status === 6 && !activity.isSoldOut)
    .sort((a, b) => a.saleStartsAt - b.saleStartsAt || a.id - b.id);
  if (!hot) return;
  const session = sessions.find((row) => row.activity_id === hot.id);
  if (session) session.high_demand = 1;
}

function buildCoupons(referenceTime: number): SeedRow[] {
  const validFrom = referenceTime - 90 * DAY;
  const validTo = referenceTime + 90 * DAY;
  // code, names, kind, fold tenths, amount (minor), currency, min spend (minor), new users only, bundle count, purpose, category
  const rows = [
    ['WELCOME100', ['New-user gift', '新用戶禮遇', '新用户礼遇'], 'amount', null, 10_000, 'HKD', 50_000, 1, 1, 'general', null],
    ['CONCERT90', ['10% off concerts', '演唱會九折', '演唱会九折'], 'rate', 90, null, null, 0, 0, 1, 'general', 1],
    ['SHOWTIME85', ['15% off any show', '全場八五折', '全场八五折'], 'rate', 85, null, null, 0, 0, 1, 'general', null],
    ['SAVE50', ['Spend and save', '滿額優惠', '满额优惠'], 'amount', null, 5_000, 'HKD', 30_000, 0, 1, 'general', null],
    ['TAIPEI200', ['Taipei spend and save', '台北滿額優惠', '台北满额优惠'], 'amount', null, 200, 'TWD', 2_000, 0, 1, 'general', null],
    ['TRIO30', ['Three-coupon pack', '優惠券三張裝', '优惠券三张装'], 'amount', null, 3_000, 'HKD', 20_000, 0, 3, 'general', null],
    ['FRIEND60', ["Friend's welcome", '好友見面禮', '好友见面礼'], 'amount', null, 6_000, 'HKD', 40_000, 0, 1, 'invitee', null],
    ['THANKS50', ['Thanks for inviting', '邀請獎賞', '邀请奖赏'], 'amount', null, 5_000, 'HKD', 30_000, 0, 1, 'inviter', null],
  ] as const;
  return rows.map(
    ([code, [en, hant, hans], kind, foldTenths, amount, currency, minSpend, newUserOnly, bundleCount, purpose, categoryId], index) => ({
      id: index + 1,
      code,
      name_en: en,
      name_zh_hant: hant,
      name_zh_hans: hans,
      kind,
      fold_tenths: foldTenths,
      amount,
      currency,
      min_spend: minSpend,
      new_user_only: newUserOnly,
      bundle_count: bundleCount,
      valid_from: validFrom,
      valid_to: validTo,
      purpose,
      category_id: categoryId,
    }),
  );
}

function buildHotKeywords(): SeedRow[] {
  const locales = ['en', 'zh-Hant', 'zh-Hans'] as const;
  const contentTemplates: Names = ['{show} – tickets on sale', '《{show}》門票熱賣中', '《{show}》门票热卖中'];
  return locales.flatMap((locale, script) =>
    HOT_KEYWORD_ARTIST_IDS.map((artistId, index) => {
      const artist = ARTISTS[artistId - 1];
      return {
        id: script * HOT_KEYWORD_ARTIST_IDS.length + index + 1,
        locale,
        keyword: artist.names[script],
        landing_page_type: 1,
        landing_page_params: '',
        content: localize(contentTemplates, { show: artist.shows[0] })[script],
        sort: index + 1,
      };
    }),
  );
}

/** Banners feature each city's hot activities first. */
function buildBanners(activities: Activity[]): SeedRow[] {
  return BANNER_COUNTS.flatMap(([cityId, count]) =>
    activities
      .filter((activity) => activity.city.id === cityId)
      .sort((a, b) => Number(b.isHot) - Number(a.isHot) || a.id - b.id)
      .slice(0, count)
      .map((activity, sort) => ({ activityId: activity.id, cityId, sort: sort + 1 })),
  ).map(({ activityId, cityId, sort }, index) => ({
    id: index + 1,
    city_id: cityId,
    activity_id: activityId,
    poster: posterPath('banner', activityId),
    url: `/activity/${activityId}`,
    sort,
  }));
}

function buildPopUpBoxes(referenceTime: number): SeedRow[] {
  const boxes = [
    {
      title: {
        en: 'Welcome gift: {amount:10000} off',
        'zh-Hant': '新人禮遇：立減{amount:10000}',
        'zh-Hans': '新人礼遇：立减{amount:10000}',
      },
      body: {
        en: 'Sign up today and get {amount:10000} off your first order over {minimum:50000}.',
        'zh-Hant': '立即註冊，首張訂單滿{minimum:50000}即減{amount:10000}。',
        'zh-Hans': '立即注册，首张订单满{minimum:50000}即减{amount:10000}。',
      },
      link: '/couponList',
    },
    {
      title: { en: 'Invite friends, both get rewarded', 'zh-Hant': '邀請好友，雙方均享獎賞', 'zh-Hans': '邀请好友，双方均享奖赏' },
      body: {
        en: 'Your friend gets {amount:6000} off their first order, and you get {amount:5000} off as soon as they sign up.',
        'zh-Hant': '好友首單立減{amount:6000}，好友一完成註冊你即可獲{amount:5000}優惠。',
        'zh-Hans': '好友首单立减{amount:6000}，好友一完成注册你即可获{amount:5000}优惠。',
      },
      link: '/invitation',
    },
  ];
  return boxes.map((content, index) => ({
    id: index + 1,
    scene_type: 'HOME',
    content: JSON.stringify(content),
    currency: 'HKD',
    valid_from: referenceTime - 30 * DAY,
    valid_to: referenceTime + 60 * DAY,
  }));
}

/** The demo lotteries: prizes, codes allowed per entry, and the day of the draw after the reference time. */
const LOTTERY_PLANS = [
  { prizeCount: 3, ticketsPerPrize: 2, maxCodesPerEntry: 5, drawDay: 3 },
  { prizeCount: 2, ticketsPerPrize: 1, maxCodesPerEntry: 5, drawDay: 5 },
  { prizeCount: 5, ticketsPerPrize: 1, maxCodesPerEntry: 10, drawDay: 7 },
] as const;
/** A lottery draws at least this long before its show, so the winners' tickets can still be issued. */
const LOTTERY_LEAD_DAYS = 5;

/**
 * Free-ticket lotteries on upcoming Hong Kong shows on sale, each on a tier whose e-ticket listings
 * hold every prize. The draw seed comes from the demo PRNG (demo data only: a real lottery's seed
 * must come from crypto.getRandomValues); only its SHA-256 is published before the draw.
 */
function buildLotteries(
  rand: Random,
  activities: Activity[],
  inventory: ReturnType<typeof buildInventory>,
  referenceTime: number,
): SeedRow[] {
  const tiersOf = (sessionId: number) => inventory.tiers.filter((tier) => tier.session_id === sessionId);
  const prizeStock = (tierId: number) =>
    inventory.listings
      .filter(
        (listing) =>
          listing.tier_id === tierId && listing.status === 'active' && String(listing.delivery_types).split(',').includes('e_ticket'),
      )
      .reduce((sum, listing) => sum + (listing.quantity_available as number), 0);
  const candidates = activities.filter(
    (activity) =>
      activity.city.id === DEFAULT_CITY_ID &&
      activity.status === 1 &&
      !activity.isSoldOut &&
      !activity.realNameRequired &&
      activity.saleStartsAt <= referenceTime &&
      activity.sessions[0].startsAt > referenceTime + (LOTTERY_PLANS[2].drawDay + LOTTERY_LEAD_DAYS) * DAY,
  );
  const rows: SeedRow[] = [];
  for (const activity of candidates) {
    const plan = LOTTERY_PLANS[rows.length];
    if (!plan) break;
    const session = inventory.sessions.find((row) => row.activity_id === activity.id)!;
    const tier = tiersOf(session.id as number).find((row) => prizeStock(row.id as number) >= plan.prizeCount * plan.ticketsPerPrize);
    if (!tier) continue;
    const seed = Array.from({ length: 32 }, () => rand.int(0, 255).toString(16).padStart(2, '0')).join('');
    rows.push({
      id: rows.length + 1,
      activity_id: activity.id,
      tier_id: tier.id,
      prize_count: plan.prizeCount,
      max_codes_per_entry: plan.maxCodesPerEntry,
      draw_at: referenceTime + plan.drawDay * DAY + 12 * HOUR,
      seed_commitment: createHash('sha256').update(seed, 'utf8').digest('hex'),
      seed,
      status: 'open',
      tickets_per_prize: plan.ticketsPerPrize,
      drawn_at: null,
    });
  }
  return rows;
}

/** The whole demo catalogue for a reference time (epoch ms, UTC midnight of the day to seed for). */
export function buildSeed(referenceTime: number): SeedData {
  const rand = makeRandom(PRNG_SEED);
  const users = buildUsers(rand, referenceTime);
  const activities = buildActivities(rand, referenceTime);
  markHighlights(rand, activities);
  const activityRows = activities.map((activity) => activityRow(rand, activity));
  const inventory = buildInventory(
    rand,
    activities,
    referenceTime,
    users.map((user) => user.id as number),
  );
  markHighDemand(activities, inventory.sessions);

  return {
    languages: LANGUAGES.map(([code, name], index) => ({ id: index + 1, code, name, language_type: index + 1, sort: index + 1 })),
    currencies: CURRENCIES.map(([code, desc, currencyType, minorDigits], index) => ({
      code,
      desc,
      currency_type: currencyType,
      minor_digits: minorDigits,
      sort: index + 1,
    })),
    fx_rates: CURRENCIES.map(([code, , , , perHkdMicros]) => ({ quote: code, per_hkd_micros: perHkdMicros, updated_at: referenceTime })),
    countries: COUNTRIES.map(([id, code, callingCode, en, hant, hans]) => ({
      id,
      code,
      calling_code: callingCode,
      name_en: en,
      name_zh_hant: hant,
      name_zh_hans: hans,
    })),
    cities: CITIES.map((city, index) => ({
      id: city.id,
      country_id: city.countryId,
      name_en: city.names[0],
      name_zh_hant: city.names[1],
      name_zh_hans: city.names[2],
      first_letter: city.names[0][0].toUpperCase(),
      is_hot_city: city.isHot ? 1 : 0,
      is_china: city.isChina ? 1 : 0,
      city_code: city.code,
      time_zone: city.timeZone,
      longitude: city.longitude,
      latitude: city.latitude,
      sort: index + 1,
    })),
    categories: CATEGORIES.map((category) => ({
      id: category.id,
      slug: category.slug,
      name_en: category.names[0],
      name_zh_hant: category.names[1],
      name_zh_hans: category.names[2],
      pinyin: category.pinyin,
      sort: category.id,
    })),
    venues: VENUES.map((venue) => ({
      id: venue.id,
      city_id: venue.cityId,
      name_en: venue.names[0],
      name_zh_hant: venue.names[1],
      name_zh_hans: venue.names[2],
      address_en: venue.addressEn,
      address_zh: venue.addressZh,
      longitude: venue.longitude,
      latitude: venue.latitude,
    })),
    artists: ARTISTS.map((artist) => ({
      id: artist.id,
      name_en: artist.names[0],
      name_zh_hant: artist.names[1],
      name_zh_hans: artist.names[2],
      pinyin: artist.pinyin,
    })),
    users,
    activities: activityRows,
    activity_sessions: inventory.sessions,
    ticket_tiers: inventory.tiers,
    listings: inventory.listings,
    lotteries: buildLotteries(rand, activities, inventory, referenceTime),
    coupons: buildCoupons(referenceTime),
    hot_keywords: buildHotKeywords(),
    banners: buildBanners(activities),
    pop_up_boxes: buildPopUpBoxes(referenceTime),
  };
}

// ---------------------------------------------------------------------------------------------
// SQL

const MAX_ROWS_PER_INSERT = 50;
/** D1 rejects statements over 100 KB; activity rows carry three descriptions, so size is capped too. */
const MAX_STATEMENT_BYTES = 90_000;

function quoteIdentifier(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

function sqlLiteral(value: SeedValue): string {
  if (value === null) return 'NULL';
  if (typeof value === 'boolean') return value ? '1' : '0';
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new Error(`Cannot write ${value} to SQL`);
    return String(value);
  }
  return `'${value.replaceAll("'", "''")}'`;
}

/** Multi-row INSERT statements for `data`, tables in foreign-key order; plain SQL that D1 accepts. */
export function seedStatements(data: SeedData): string[] {
  const unknown = Object.keys(data).filter((table) => !SEED_TABLES.includes(table));
  if (unknown.length > 0) throw new Error(`No insert order for tables: ${unknown.join(', ')}`);

  const encoder = new TextEncoder();
  const statements: string[] = [];
  for (const table of SEED_TABLES) {
    const rows = data[table] ?? [];
    if (rows.length === 0) continue;
    const columns = Object.keys(rows[0]);
    const head = `INSERT INTO ${quoteIdentifier(table)} (${columns.map(quoteIdentifier).join(', ')}) VALUES `;
    const headBytes = encoder.encode(head).length;
    let tuples: string[] = [];
    let bytes = headBytes;
    const flush = () => {
      statements.push(`${head}${tuples.join(', ')};`);
      tuples = [];
      bytes = headBytes;
    };
    for (const row of rows) {
      const tuple = `(${columns.map((column) => sqlLiteral(row[column])).join(', ')})`;
      const tupleBytes = encoder.encode(tuple).length + 2;
      if (tuples.length === MAX_ROWS_PER_INSERT || (tuples.length > 0 && bytes + tupleBytes > MAX_STATEMENT_BYTES)) flush();
      tuples.push(tuple);
      bytes += tupleBytes;
    }
    flush();
  }
  return statements;
}
