// Generates src/mock/fixtures/merchants.json: the merchant directory `svc mock` resolves QR-payment
// terminals and merchant names against. Deterministic (a seeded generator): running it again
// writes the same file. Run: node scripts/generate-merchant-fixtures.mjs
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

import { mulberry32 } from './mulberry32.mjs';

const OUT = fileURLToPath(new URL('../src/mock/fixtures/merchants.json', import.meta.url));
const SEED = 0x5eed_18245;
const MERCHANTS = 1400;

const random = mulberry32(SEED);
const pick = (list) => list[Math.floor(random() * list.length)];

// ISO 18245 merchant category codes, the spend category we file them under, and the words a
// Nepali shop of that kind puts after its name. Weights make groceries and food most common.
const KINDS = [
  {
    mcc: '5411',
    category: 'groceries',
    weight: 14,
    words: ['Kirana Pasal', 'Grocery', 'Supermarket', 'Mart', 'Departmental Store'],
  },
  {
    mcc: '5499',
    category: 'groceries',
    weight: 4,
    words: ['Dairy', 'Fresh House', 'Tarkari Pasal', 'Masala Udhyog'],
  },
  {
    mcc: '5462',
    category: 'groceries',
    weight: 3,
    words: ['Bakery', 'Bakers', 'Sweets', 'Mithai Pasal'],
  },
  {
    mcc: '5812',
    category: 'dining',
    weight: 12,
    words: [
      'Restaurant',
      'Bhojanalaya',
      'Momo House',
      'Thakali Kitchen',
      'Khaja Ghar',
      'Newari Kitchen',
    ],
  },
  {
    mcc: '5814',
    category: 'dining',
    weight: 6,
    words: ['Cafe', 'Coffee', 'Fast Food', 'Chiya Pasal', 'Burger House'],
  },
  { mcc: '5813', category: 'dining', weight: 2, words: ['Bar', 'Lounge', 'Pub'] },
  {
    mcc: '5912',
    category: 'health',
    weight: 7,
    words: ['Pharmacy', 'Medical Hall', 'Aushadhi Pasal', 'Drug House'],
  },
  {
    mcc: '8062',
    category: 'health',
    weight: 2,
    words: ['Hospital', 'Nursing Home', 'Health Care'],
  },
  { mcc: '8021', category: 'health', weight: 1, words: ['Dental Clinic', 'Dental Care'] },
  { mcc: '5541', category: 'fuel', weight: 4, words: ['Petrol Pump', 'Fuel Station', 'Oil Depot'] },
  {
    mcc: '5311',
    category: 'shopping',
    weight: 3,
    words: ['Department Store', 'Shopping Centre', 'Bazaar'],
  },
  {
    mcc: '5651',
    category: 'shopping',
    weight: 5,
    words: ['Fashion', 'Clothing', 'Boutique', 'Kapada Pasal', 'Dhaka Bhandar'],
  },
  {
    mcc: '5661',
    category: 'shopping',
    weight: 2,
    words: ['Shoe Centre', 'Footwear', 'Juttaa Pasal'],
  },
  {
    mcc: '5944',
    category: 'shopping',
    weight: 2,
    words: ['Jewellers', 'Gold House', 'Sun Chandi Pasal'],
  },
  {
    mcc: '5732',
    category: 'electronics',
    weight: 4,
    words: ['Electronics', 'Mobile Centre', 'Computer House', 'Digital World'],
  },
  { mcc: '5722', category: 'electronics', weight: 2, words: ['Home Appliances', 'Electricals'] },
  {
    mcc: '5251',
    category: 'home',
    weight: 3,
    words: ['Hardware', 'Hardware Suppliers', 'Nirman Samagri'],
  },
  { mcc: '5712', category: 'home', weight: 2, words: ['Furniture', 'Furnishing', 'Interiors'] },
  {
    mcc: '5942',
    category: 'education',
    weight: 2,
    words: ['Book House', 'Pustak Bhandar', 'Stationery'],
  },
  { mcc: '8220', category: 'education', weight: 2, words: ['College', 'Academy', 'Campus'] },
  {
    mcc: '8211',
    category: 'education',
    weight: 2,
    words: ['School', 'Boarding School', 'Vidhyalaya'],
  },
  {
    mcc: '7011',
    category: 'travel',
    weight: 3,
    words: ['Hotel', 'Guest House', 'Resort', 'Homestay'],
  },
  {
    mcc: '4722',
    category: 'travel',
    weight: 2,
    words: ['Travels', 'Tours', 'Treks and Expedition'],
  },
  { mcc: '4121', category: 'transport', weight: 2, words: ['Taxi Service', 'Yatayat', 'Ride'] },
  { mcc: '4131', category: 'transport', weight: 1, words: ['Bus Sewa', 'Coach Service'] },
  {
    mcc: '4814',
    category: 'utilities',
    weight: 2,
    words: ['Recharge Centre', 'Communication', 'Cyber'],
  },
  {
    mcc: '4900',
    category: 'utilities',
    weight: 1,
    words: ['Khanepani', 'Bijuli Sewa', 'Gas Suppliers'],
  },
  {
    mcc: '7230',
    category: 'personal_care',
    weight: 3,
    words: ['Beauty Parlour', 'Salon', 'Hair Cutting'],
  },
  { mcc: '7997', category: 'entertainment', weight: 1, words: ['Fitness Club', 'Futsal', 'Gym'] },
  { mcc: '7832', category: 'entertainment', weight: 1, words: ['Cinemas', 'Cine Hall'] },
  { mcc: '5995', category: 'shopping', weight: 1, words: ['Pet Shop', 'Pet Care'] },
  { mcc: '5992', category: 'shopping', weight: 1, words: ['Flower Shop', 'Phool Pasal'] },
  { mcc: '5921', category: 'shopping', weight: 1, words: ['Wine Shop', 'Liquor Store'] },
];

// The first word of a shop's name: family names, places, deities, mountains and plain words.
const FIRST_WORDS = [
  'Shrestha',
  'Maharjan',
  'Tamang',
  'Gurung',
  'Magar',
  'Rai',
  'Limbu',
  'Sherpa',
  'Thakali',
  'Newa',
  'Adhikari',
  'Poudel',
  'Karki',
  'Thapa',
  'Basnet',
  'Joshi',
  'Pradhan',
  'Bajracharya',
  'Shakya',
  'Tuladhar',
  'Himalayan',
  'Everest',
  'Annapurna',
  'Sagarmatha',
  'Machhapuchhre',
  'Kanchenjunga',
  'Dhaulagiri',
  'Manaslu',
  'Langtang',
  'Gaurishankar',
  'Lumbini',
  'Janaki',
  'Pashupati',
  'Swayambhu',
  'Boudha',
  'Thamel',
  'Patan',
  'Bhaktapur',
  'Kirtipur',
  'Pokhara',
  'Laxmi',
  'Ganesh',
  'Saraswati',
  'Durga',
  'Shiva',
  'Bhairab',
  'Manakamana',
  'Guheshwori',
  'Kumari',
  'Bhagwati',
  'Namaste',
  'Mero',
  'Hamro',
  'Sundar',
  'Naya',
  'Purano',
  'Sagun',
  'Subha',
  'Jyoti',
  'Prabhat',
  'Mount',
  'Rhododendron',
  'Lali Gurans',
  'Danphe',
  'Koshi',
  'Gandaki',
  'Karnali',
  'Bagmati',
  'Trishuli',
  'Sunkoshi',
  'Baneshwor',
  'Chabahil',
  'Kalanki',
  'Koteshwor',
  'Maharajgunj',
  'Jawalakhel',
  'Lazimpat',
  'Baluwatar',
  'Sanepa',
  'Kupondole',
];
// An optional second word, so that names vary beyond first word + kind.
const SECOND_WORDS = [
  '',
  '',
  '',
  '',
  'New',
  'Shree',
  'Royal',
  'Golden',
  'Green',
  'Star',
  'City',
  'Valley',
  'Peak',
  'Mountain',
  'Family',
  'Classic',
];

const CITIES = [
  ['Kathmandu', 22],
  ['Lalitpur', 8],
  ['Bhaktapur', 5],
  ['Pokhara', 9],
  ['Biratnagar', 6],
  ['Birgunj', 5],
  ['Bharatpur', 5],
  ['Butwal', 5],
  ['Dharan', 4],
  ['Hetauda', 3],
  ['Janakpur', 3],
  ['Nepalgunj', 3],
  ['Dhangadhi', 3],
  ['Itahari', 3],
  ['Bhairahawa', 3],
  ['Birtamod', 2],
  ['Damak', 2],
  ['Tulsipur', 2],
  ['Ghorahi', 2],
  ['Banepa', 2],
  ['Dhulikhel', 1],
  ['Gorkha', 1],
  ['Tansen', 1],
  ['Ilam', 1],
  ['Bhimdatta', 1],
  ['Birendranagar', 2],
  ['Rajbiraj', 1],
  ['Lahan', 1],
  ['Kalaiya', 1],
  ['Gulariya', 1],
];

function weighted(rows, weightOf) {
  const total = rows.reduce((sum, row) => sum + weightOf(row), 0);
  let r = random() * total;
  for (const row of rows) {
    r -= weightOf(row);
    if (r < 0) return row;
  }
  return rows.at(-1);
}

// The same normalisation as src/mock/merchants/normalise.ts, kept deliberately simple here: it
// only has to keep two fixture merchants from sharing one normalised name.
const SUFFIXES = new Set([
  'pvt',
  'ltd',
  'private',
  'limited',
  'store',
  'stores',
  'traders',
  'trading',
  'suppliers',
  'and',
  'co',
  'company',
  'shop',
  'enterprises',
  'udhyog',
  'pasal',
  'bhandar',
]);
const normalise = (name) =>
  name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ')
    .trim()
    .split(' ')
    .filter((w) => !SUFFIXES.has(w))
    .join(' ');

/** A terminal number of 16 digits (most) or 19 digits, never starting with 0. */
function terminalNumber(length) {
  let digits = String(1 + Math.floor(random() * 9));
  while (digits.length < length) digits += String(Math.floor(random() * 10));
  return digits;
}

const merchants = [];
const names = new Set();
const terminals = new Set();
while (merchants.length < MERCHANTS) {
  const kind = weighted(KINDS, (k) => k.weight);
  const second = pick(SECOND_WORDS);
  const merchant = [pick(FIRST_WORDS), second, pick(kind.words)].filter(Boolean).join(' ');
  const key = normalise(merchant);
  if (key === '' || names.has(key)) continue;
  names.add(key);
  const count = weighted(
    [
      [1, 5],
      [2, 3],
      [3, 2],
      [4, 1],
    ],
    (row) => row[1],
  )[0];
  const own = [];
  while (own.length < count) {
    const number = terminalNumber(random() < 0.85 ? 16 : 19);
    if (terminals.has(number)) continue;
    terminals.add(number);
    own.push(number);
  }
  merchants.push({
    merchant,
    mcc: kind.mcc,
    category: kind.category,
    city: weighted(CITIES, (row) => row[1])[0],
    terminals: own,
  });
}

// The merchants that the mock's statements pay (src/mock/fixtures/counterparties.json and
// scenarios.json): in the directory too, so a terminal read from a report's transactions resolves.
// Added after the generated ones, so the generated part of the file stays as it was.
const KNOWN = [
  ['Bhat Bhateni Supermarket', '5411', 'groceries', 'Kathmandu', 3],
  ['Big Mart', '5411', 'groceries', 'Kathmandu', 2],
  ['Salesberry', '5411', 'groceries', 'Lalitpur', 2],
  ['Civil Mall', '5311', 'shopping', 'Kathmandu', 1],
  ['Daraz', '5399', 'shopping', 'Kathmandu', 1],
  ['Sastodeal', '5399', 'shopping', 'Kathmandu', 1],
  ['Foodmandu', '5814', 'dining', 'Kathmandu', 1],
  ['Nepal Oil Corporation Pump', '5541', 'fuel', 'Kathmandu', 2],
  ['WorldLink Communications', '4814', 'utilities', 'Lalitpur', 1],
  ['Vianet Communications', '4814', 'utilities', 'Lalitpur', 1],
  ['Ncell Axiata', '4814', 'utilities', 'Kathmandu', 1],
  ['Nepal Telecom', '4814', 'utilities', 'Kathmandu', 1],
  ['DishHome', '4899', 'entertainment', 'Kathmandu', 1],
  ['Netflix', '4899', 'entertainment', 'Kathmandu', 1],
  ['Budhanilkantha School', '8211', 'education', 'Kathmandu', 1],
  ['Little Angels School', '8211', 'education', 'Lalitpur', 1],
];
for (const [merchant, mcc, category, city, count] of KNOWN) {
  if (names.has(normalise(merchant)))
    throw new Error(`${merchant} is already a generated merchant`);
  names.add(normalise(merchant));
  const own = [];
  while (own.length < count) {
    const number = terminalNumber(16);
    if (terminals.has(number)) continue;
    terminals.add(number);
    own.push(number);
  }
  merchants.push({ merchant, mcc, category, city, terminals: own });
}

// One merchant per line: small, and a regenerated file diffs line by line.
const source = 'svc mock merchant directory (generated fixture data)';
const lines = merchants.map((m) => '    ' + JSON.stringify(m)).join(',\n');
writeFileSync(
  OUT,
  `{\n  "source": ${JSON.stringify(source)},\n  "merchants": [\n${lines}\n  ]\n}\n`,
);
console.log(`wrote ${merchants.length} merchants with ${terminals.size} terminals to ${OUT}`);
