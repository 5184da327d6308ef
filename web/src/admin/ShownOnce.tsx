// A secret the server shows only once (a new API token, a sign-in link): the value, a copy button and a way to close it.
import { useEffect, useId, useRef } from 'react';
import { Alert, Button, Code, CopyButton, Group, Paper, Stack, Text } from '@mantine/core';

export interface ShownOnceLabels {
  title: string;
  warning: string;
  copy: string;
  copied: string;
  done: string;
}

export function ShownOnce({ value, labels, onDone }: { value: string; labels: ShownOnceLabels; onDone: () => void }) {
  const id = useId();
  const heading = useRef<HTMLParagraphElement>(null);
  // Keyboard and screen-reader users land on what just appeared instead of where the button was.
  useEffect(() => heading.current?.focus(), [value]);
  return (
    <Paper withBorder p="md" className="admin-shown-once">
      <Stack gap="xs">
        <Text fw={600} id={id} ref={heading} tabIndex={-1}>
          {labels.title}
        </Text>
        <Alert color="yellow">{labels.warning}</Alert>
        <Code block dir="ltr" aria-labelledby={id} className="admin-secret">
          {value}
        </Code>
        <Group gap="xs">
          <CopyButton value={value}>
            {({ copied, copy }) => <Button onClick={copy}>{copied ? labels.copied : labels.copy}</Button>}
          </CopyButton>
          <Button variant="default" onClick={onDone}>
            {labels.done}
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}
