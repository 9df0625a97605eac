import { readFileSync } from "node:fs";
import { resolve } from "node:path";

// Where the tests' inputs live: the real samples and the dev evaluation set beside the repository
// (/work/shared, i.e. ../shared from the repo root), and this repository's own fixtures.

const repo = resolve(import.meta.dirname, "../../..");

export const SAMPLES = resolve(repo, "../shared/samples");
export const EVAL_NOTICES = resolve(repo, "../shared/eval/dev/notices.ocds.json");
export const FIXTURES = resolve(repo, "test/fixtures/feeds");

export const OCDS_SAMPLE = resolve(SAMPLES, "ocds_uk-contracts-finder_release_tender_CP1093-14.json");
export const EFORMS_ORIGINAL = resolve(SAMPLES, "eforms_cn_24_open_original.xml");
export const EFORMS_CHANGE = resolve(SAMPLES, "eforms_change-cn_24_open_dates_amendment.xml");
export const SAM_FIXTURE = resolve(FIXTURES, "sam-search-response.json");
export const EFORMS_TWO_LOTS = resolve(FIXTURES, "eforms-cn-two-lots.xml");
export const TED_R209_TWO_LOTS = resolve(FIXTURES, "ted-r209-f02-two-lots.xml");

export const readText = (path: string): string => readFileSync(path, "utf8");
export const readJson = (path: string): unknown => JSON.parse(readText(path));
