// The acting caller follows its own async work, concurrent work keeps its own, and work outside any has the service's.
import { describe, expect, it } from 'vitest';
import { actingAs, adminActing, currentActing } from '../../src/events/actor-context.js';

const actorId = () => currentActing().actor().id;
const later = () => new Promise<void>((resolve) => setTimeout(resolve, 5));

describe('actingAs', () => {
  it('keeps each concurrent caller across its awaits, and the service acts once all have settled', async () => {
    const seen: string[] = [];
    const work = (id: string) =>
      actingAs(adminActing(id), async () => {
        seen.push(actorId());
        await later();
        seen.push(actorId());
        await Promise.resolve();
        seen.push(actorId());
      });
    await Promise.all([work('a'), work('b')]);
    expect(seen.filter((id) => id === 'a')).toHaveLength(3);
    expect(seen.filter((id) => id === 'b')).toHaveLength(3);
    await new Promise<void>((resolve) => setImmediate(resolve));
    expect(actorId()).toBe('service');
  });

  it('settles a caller whose work threw or rejected, and nested callers see the innermost', async () => {
    expect(() =>
      actingAs(adminActing('thrower'), () => {
        throw new Error('sync');
      }),
    ).toThrow('sync');
    await expect(
      actingAs(adminActing('rejecter'), async () => {
        await later();
        throw new Error('async');
      }),
    ).rejects.toThrow('async');
    const nested = await actingAs(adminActing('outer'), async () => {
      const inner = await actingAs(adminActing('inner'), async () => {
        await later();
        return actorId();
      });
      await later();
      return [inner, actorId()];
    });
    expect(nested).toEqual(['inner', 'outer']);
    expect(actorId()).toBe('service');
  });
});
