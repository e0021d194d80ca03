import { describe, expect, test } from 'vitest';
import { buildWritePlan, filledModels, type ModelDefinitions } from '../src/data-model.js';

const scalar = (name: string, type = 'BigInt') => ({ name, kind: 'scalar', type });
const relation = (name: string, type: string) => ({ name, kind: 'object', type });

describe('filledModels()', () => {
  // League -> Team -> Player (snowflake) <- Badge; Audit and Tag relate only to each other.
  const dataModel: ModelDefinitions = {
    models: {
      League: { fields: [scalar('id', 'Int'), relation('teams', 'Team')] },
      Team: { fields: [scalar('id', 'Int'), relation('league', 'League'), relation('players', 'Player')] },
      Player: { fields: [scalar('id'), relation('team', 'Team'), relation('badges', 'Badge')] },
      Badge: { fields: [scalar('id', 'Int'), relation('player', 'Player')] },
      Audit: { fields: [scalar('id', 'Int'), relation('tags', 'Tag')] },
      Tag: { fields: [scalar('id', 'Int'), scalar('weight'), relation('audit', 'Audit')] },
    },
  };

  test('GIVEN one snowflake model THEN it and every model whose relations lead to it, at any depth, in the data model order', () => {
    const plan = buildWritePlan(dataModel, new Map([['Player', ['id']]]));
    expect(filledModels(plan)).toEqual(['League', 'Team', 'Player', 'Badge']);
  });

  test('GIVEN snowflake models in two unconnected parts THEN both parts', () => {
    const plan = buildWritePlan(
      dataModel,
      new Map([
        ['Player', ['id']],
        ['Tag', ['weight']],
      ]),
    );
    expect(filledModels(plan)).toEqual(['League', 'Team', 'Player', 'Badge', 'Audit', 'Tag']);
  });

  test('GIVEN a snowflake model with no relations THEN it alone', () => {
    const plan = buildWritePlan(
      { models: { Solo: { fields: [scalar('id')] }, Other: { fields: [scalar('id', 'Int')] } } },
      new Map([['Solo', ['id']]]),
    );
    expect(filledModels(plan)).toEqual(['Solo']);
  });
});
