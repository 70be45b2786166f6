import { describe, expect, it } from 'vitest';
import { CODES } from '../../src/service/errors.js';
import {
  type QueryParams,
  queryBoolean,
  queryIds,
  queryString,
  readPage,
  resultInfo,
} from '../../src/service/pagination.js';
import { failure } from './fixtures.js';

describe('readPage', () => {
  it('defaults to the first page of 25', () => {
    expect(readPage({})).toEqual({ page: 1, perPage: 25 });
  });

  it('reads page and per_page at their bounds', () => {
    expect(readPage({ page: '1', per_page: '5' })).toEqual({ page: 1, perPage: 5 });
    expect(readPage({ page: '3', per_page: '100' })).toEqual({ page: 3, perPage: 100 });
    expect(readPage({ page: '2147483647' })).toEqual({ page: 2147483647, perPage: 25 });
  });

  it.each<[QueryParams, string]>([
    [{ page: '0' }, 'page must be an integer from 1 to 2147483647'],
    [{ page: '-1' }, 'page must be an integer from 1 to 2147483647'],
    [{ page: '1.5' }, 'page must be an integer from 1 to 2147483647'],
    [{ page: 'two' }, 'page must be an integer from 1 to 2147483647'],
    [{ page: '' }, 'page must be an integer from 1 to 2147483647'],
    [{ page: '2147483648' }, 'page must be an integer from 1 to 2147483647'],
    [{ page: '99999999999999999999' }, 'page must be an integer from 1 to 2147483647'],
    [{ per_page: '4' }, 'per_page must be an integer from 5 to 100'],
    [{ per_page: '101' }, 'per_page must be an integer from 5 to 100'],
    [{ per_page: ' 10' }, 'per_page must be an integer from 5 to 100'],
    [{ page: ['1', '2'] }, 'page must be given at most once'],
  ])('refuses %j', async (query, message) => {
    const error = await failure(() => readPage(query));
    expect(error.kind).toBe('bad-request');
    expect(error.errors).toEqual([{ code: CODES.invalidQuery, message }]);
  });
});

describe('resultInfo', () => {
  it('counts pages, rounding up', () => {
    expect(resultInfo({ page: 2, perPage: 5 }, 5, 11)).toEqual({
      page: 2,
      per_page: 5,
      count: 5,
      total_count: 11,
      total_pages: 3,
    });
    expect(resultInfo({ page: 1, perPage: 25 }, 0, 0).total_pages).toBe(0);
    expect(resultInfo({ page: 1, perPage: 5 }, 5, 5).total_pages).toBe(1);
  });
});

describe('query readers', () => {
  it('reads booleans written true or false only', async () => {
    expect(queryBoolean({ paused: 'true' }, 'paused')).toBe(true);
    expect(queryBoolean({ paused: 'false' }, 'paused')).toBe(false);
    expect(queryBoolean({}, 'paused')).toBeUndefined();
    expect((await failure(() => queryBoolean({ paused: 'yes' }, 'paused'))).errors[0]).toEqual({
      code: CODES.invalidQuery,
      message: 'paused must be true or false',
    });
  });

  it('reads a single string, refusing repeats', async () => {
    expect(queryString({ ref: 'a' }, 'ref')).toBe('a');
    expect(queryString({ ref: ['a'] }, 'ref')).toBe('a');
    expect(queryString({}, 'ref')).toBeUndefined();
    expect((await failure(() => queryString({ ref: ['a', 'b'] }, 'ref'))).errors[0]?.code).toBe(
      CODES.invalidQuery,
    );
  });

  it('reads repeated ids, without empty ones or repeats', () => {
    expect(queryIds({})).toEqual([]);
    expect(queryIds({ id: 'a' })).toEqual(['a']);
    expect(queryIds({ id: ['a', '', 'b', 'a'] })).toEqual(['a', 'b']);
  });
});
