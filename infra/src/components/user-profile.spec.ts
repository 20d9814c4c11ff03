import { describe, expect, it } from '@jest/globals';
import { userProfileOf } from './user-profile.js';

describe(userProfileOf.name, () => {
  it("carries every part of Keycloak's user profile the provider's resource has", () => {
    expect(
      userProfileOf({
        attributes: [
          {
            name: 'department',
            displayName: '${department}',
            defaultValue: 'sales',
            group: 'work',
            validations: {
              options: { options: ['sales', 'support'] },
              'person-name-prohibited-characters': {},
            },
            required: { roles: ['user'], scopes: ['profile'] },
            selector: { scopes: ['profile'] },
            permissions: { view: ['admin', 'user'], edit: ['admin'] },
            annotations: { inputType: 'select', inputOptionLabels: { sales: 'Sales' } },
            multivalued: true,
          },
        ],
        groups: [{ name: 'work', displayHeader: 'Work', displayDescription: 'Where one works' }],
        unmanagedAttributePolicy: 'ADMIN_VIEW',
      }),
    ).toEqual({
      attributes: [
        {
          name: 'department',
          displayName: '${department}',
          defaultValue: 'sales',
          group: 'work',
          validators: [
            { name: 'options', config: { options: '["sales","support"]' } },
            { name: 'person-name-prohibited-characters' },
          ],
          requiredForRoles: ['user'],
          requiredForScopes: ['profile'],
          enabledWhenScopes: ['profile'],
          permissions: { views: ['admin', 'user'], edits: ['admin'] },
          annotations: { inputType: 'select', inputOptionLabels: '{"sales":"Sales"}' },
          multiValued: true,
        },
      ],
      groups: [{ name: 'work', displayHeader: 'Work', displayDescription: 'Where one works' }],
      unmanagedAttributePolicy: 'ADMIN_VIEW',
    });
  });

  it('refuses what it cannot carry instead of dropping it', () => {
    expect(() =>
      userProfileOf({ attributes: [{ name: 'email', permissions: {}, kind: 'x' }] }),
    ).toThrow('the user profile attribute email has kind, which the Pulumi realm cannot declare');
  });
});
