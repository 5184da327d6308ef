// A field's hint made of sample values (addresses, actor ids): the lead-in in the reader's language, the samples
// left to right as code, so a right-to-left page does not reorder their dots, colons and slashes.
import { Code } from '@mantine/core';

export function Examples({ lead, samples }: { lead: string; samples: string[] }) {
  return (
    <>
      {lead}{' '}
      <span dir="ltr">
        {samples.map((sample, index) => (
          <span key={sample}>
            {index > 0 && ', '}
            <Code>{sample}</Code>
          </span>
        ))}
      </span>
    </>
  );
}
