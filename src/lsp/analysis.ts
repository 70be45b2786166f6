import { type ValidateResult, validate } from '../check/validate.js';
import type { Region, RegionFinder, RegionScan } from './regions/region.js';
import { profileFor, type Settings } from './settings.js';

// What the server knows of one version of a document: its regions, and each region's check with the plan
// and phase it is checked for. Checks are made on first use and kept by the expression's text and profile
// from one version to the next, so that typing in one rule of a 2,000-line rules file checks that rule
// only.

export interface CheckedRegion {
  region: Region;
  /** The plan and phase the region is checked for. */
  profile: Settings;
  result: ValidateResult;
}

export class DocumentAnalysis {
  readonly scan: RegionScan;
  private checked?: CheckedRegion[];

  constructor(
    readonly text: string,
    readonly uri: string,
    finder: RegionFinder,
    private readonly settings: Settings,
    private readonly cache: CheckCache,
  ) {
    this.scan = finder.find(text, uri);
  }

  get regions(): Region[] {
    return this.scan.regions;
  }

  /** Every region with its check, in document order. */
  checks(): CheckedRegion[] {
    if (!this.checked) {
      this.checked = this.scan.regions.map((region) => this.check(region));
      // This version's checks are all in the cache now: what older versions alone used can go.
      this.cache.sweep();
    }
    return this.checked;
  }

  /** The plan and phase of one region. */
  profileOf(region: Region): Settings {
    return profileFor(this.settings, region.phase);
  }

  check(region: Region): CheckedRegion {
    const profile = this.profileOf(region);
    return { region, profile, result: this.cache.validate(region.text, region.kind, profile) };
  }
}

/**
 * The checks of a document's expressions, by text, kind and profile. What a version no longer uses is
 * dropped when the next version has been checked in full (`sweep`), so the cache holds about one version.
 */
export class CheckCache {
  private current = new Map<string, ValidateResult>();
  private previous = new Map<string, ValidateResult>();

  validate(text: string, kind: Region['kind'], profile: Settings): ValidateResult {
    const key = `${kind}\u0000${profile.plan ?? ''}\u0000${profile.phase ?? ''}\u0000${text}`;
    let result = this.current.get(key) ?? this.previous.get(key);
    if (!result) result = validate(text, { plan: profile.plan, phase: profile.phase, expression: kind });
    this.current.set(key, result);
    return result;
  }

  /** Forgets the checks not asked for since the last sweep. */
  sweep(): void {
    this.previous = this.current;
    this.current = new Map();
  }
}
