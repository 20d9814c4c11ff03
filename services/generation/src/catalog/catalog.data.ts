import type { DebateCategory } from '@debate/contracts';
/** The settings a debate is generated with (spec §3): declared in the contracts, which check them. */
export { debateFormats, rhetoricStyles, roundTitles } from '@debate/contracts';

/**
 * The built-in topics the random-topic button draws from: eight for each of the ten
 * community categories, each a motion reasonable people disagree on.
 */
export const builtInTopics: Readonly<Record<DebateCategory, readonly string[]>> = {
  Politics: [
    'Should voting be compulsory in national elections?',
    'Should the voting age be lowered to 16?',
    'Should heads of government be limited to two terms?',
    'Should lobbying by corporations be banned?',
    'Should referendums decide major constitutional changes?',
    'Should political parties be publicly funded instead of privately?',
    'Should citizens be able to recall elected officials mid-term?',
    'Should national leaders publish their tax returns?',
  ],
  Technology: [
    'Should social media platforms verify the identity of every user?',
    'Should autonomous cars be allowed on public roads without a safety driver?',
    'Should governments break up the largest technology companies?',
    'Should end-to-end encryption include a lawful access mechanism?',
    'Should children under 14 be banned from owning smartphones?',
    'Should open-source AI models be restricted?',
    'Should facial recognition be banned in public spaces?',
    'Should software companies be liable for security vulnerabilities?',
  ],
  Philosophy: [
    'Is free will compatible with a deterministic universe?',
    'Is it ever morally right to lie?',
    'Does life need an objective purpose to be meaningful?',
    'Can a machine ever be conscious?',
    'Is personal identity preserved through gradual replacement?',
    'Is moral truth objective rather than cultural?',
    'Should we value future generations as much as the present one?',
    'Is knowledge possible without certainty?',
  ],
  Science: [
    'Should human germline gene editing be permitted?',
    'Is crewed space exploration worth its cost?',
    'Should animal testing be banned for medical research?',
    'Should scientific journals make all research free to read?',
    'Should we attempt to bring extinct species back to life?',
    'Should gain-of-function research on pathogens be prohibited?',
    'Should nuclear fusion receive more funding than renewables research?',
    'Should scientists be required to share their raw data publicly?',
  ],
  Society: [
    'Should a four-day work week become the standard?',
    'Should university education be free for everyone?',
    'Should homework be abolished in primary schools?',
    'Should remote work be a legal right where the job allows it?',
    'Should public transport be free at the point of use?',
    'Should national service be mandatory for young adults?',
    'Should standardized testing be removed from university admissions?',
    'Should cities prioritise cyclists and pedestrians over cars?',
  ],
  Economics: [
    'Should governments introduce a universal basic income?',
    'Should the minimum wage be raised to a living wage?',
    'Should billionaires pay a wealth tax?',
    'Should central banks issue digital currencies?',
    'Is economic growth compatible with environmental limits?',
    'Should rent control be used to tackle housing costs?',
    'Should free trade agreements include labour standards?',
    'Should cryptocurrencies be regulated like securities?',
  ],
  Environment: [
    'Should nuclear power be central to fighting climate change?',
    'Should meat be taxed for its environmental impact?',
    'Should single-use plastics be banned outright?',
    'Should rich countries pay climate reparations to poorer ones?',
    'Should geoengineering be researched as a climate backstop?',
    'Should new petrol and diesel cars be banned by 2030?',
    'Should flying be limited by a personal carbon allowance?',
    'Should rivers and forests have legal personhood?',
  ],
  Ethics: [
    'Should euthanasia be legal for consenting adults?',
    'Is it ethical to eat animals?',
    'Should organ donation be opt-out by default?',
    'Is it ethical to use AI to make hiring decisions?',
    'Should the death penalty be abolished everywhere?',
    'Do wealthy people have a duty to give most of their wealth away?',
    'Should parents be allowed to choose the traits of their children?',
    'Is it wrong to buy products made in sweatshops?',
  ],
  Culture: [
    'Should museums return artefacts to their countries of origin?',
    'Is streaming good for the music industry?',
    'Should video games be recognised as an art form?',
    'Should public funding support the arts?',
    'Does cancel culture do more harm than good?',
    'Should AI-generated art be eligible for awards?',
    'Should classic books be edited to remove offensive language?',
    'Is globalisation eroding local cultures?',
  ],
  Funny: [
    'Is a hot dog a sandwich?',
    'Does pineapple belong on pizza?',
    'Are cats better companions than dogs?',
    'Should toilet paper hang over or under?',
    'Is cereal a soup?',
    'Would you rather fight one horse-sized duck or a hundred duck-sized horses?',
    'Is it acceptable to recline your seat on a plane?',
    'Should socks with sandals be socially acceptable?',
  ],
};

export const topics: readonly string[] = Object.values(builtInTopics).flat();
