import { describe, expect, it } from 'vitest';
import { parseEntries, type SsoFormValues, ssoBody } from './forms.ts';
import { BLANK, toDraft, toForm } from './rule-form.ts';

describe('rule form', () => {
  it('sends exactly the rule fields, never id, siteId or times (the API refuses them)', () => {
    const saved = {
      ...BLANK,
      id: 'rule_1',
      siteId: 's',
      createdAt: 'x',
      updatedAt: 'y',
      name: ' fast_ip ',
      expression: 'true',
    };
    const draft = toDraft(toForm(saved));
    expect(Object.keys(draft).sort()).toEqual(
      [
        'action',
        'description',
        'enabled',
        'eventTypes',
        'expression',
        'mode',
        'name',
        'priority',
        'score',
      ].sort(),
    );
    expect(draft.name).toBe('fast_ip');
  });

  it('turns a blank score into null and numbers back into numbers', () => {
    const form = { ...toForm(BLANK), score: ' ', priority: '7' };
    expect(toDraft(form)).toMatchObject({ score: null, priority: 7 });
    expect(toDraft({ ...form, score: '-20', priority: '' })).toMatchObject({ score: -20, priority: 0 });
  });
});

describe('list entries', () => {
  it('splits lines and commas, trims and drops blanks', () => {
    expect(parseEntries(' 10.0.0.1\n\n10.0.0.0/8 , a@b.example,\n')).toEqual([
      '10.0.0.1',
      '10.0.0.0/8',
      'a@b.example',
    ]);
    expect(parseEntries('')).toEqual([]);
  });
});

describe('single sign-on body', () => {
  const form: SsoFormValues = {
    enabled: true,
    source: 'fields',
    idpEntityId: ' https://idp.example/ ',
    ssoUrl: 'https://idp.example/sso ',
    idpCertificate: '\nMIIC…\n',
    metadataXml: '<EntityDescriptor/>',
    metadataUrl: ' https://idp.example/metadata ',
    defaultRole: 'viewer',
    ssoRequired: false,
  };

  it('sends the three IdP fields, trimmed', () => {
    expect(ssoBody(form)).toEqual({
      enabled: true,
      defaultRole: 'viewer',
      ssoRequired: false,
      idpEntityId: 'https://idp.example/',
      ssoUrl: 'https://idp.example/sso',
      idpCertificate: 'MIIC…',
    });
  });

  it('or only the metadata XML', () => {
    expect(ssoBody({ ...form, source: 'url' })).toEqual({
      enabled: true,
      defaultRole: 'viewer',
      ssoRequired: false,
      metadataUrl: 'https://idp.example/metadata',
    });
    expect(ssoBody({ ...form, source: 'metadata' })).toEqual({
      enabled: true,
      defaultRole: 'viewer',
      ssoRequired: false,
      metadataXml: '<EntityDescriptor/>',
    });
  });
});
