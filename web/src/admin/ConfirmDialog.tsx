// A dialog that asks before an admin action that cannot be undone (delete, lift a ban, restore a default, rotate a
// secret): cancel has the focus, so the easy way out is the default.
import type { ReactNode } from 'react';
import { Button, Group, Modal, Stack, Text } from '@mantine/core';

/** What the dialog says: its title, its question, and the names of its two buttons. */
export interface ConfirmWording {
  title: string;
  body: ReactNode;
  confirm: string;
  cancel: string;
}

interface Props extends ConfirmWording {
  opened: boolean;
  onConfirm: () => void;
  onClose: () => void;
}

export function ConfirmDialog({ opened, title, body, confirm, cancel, onConfirm, onClose }: Props) {
  return (
    <Modal opened={opened} onClose={onClose} title={title} closeButtonProps={{ 'aria-label': cancel }}>
      <Stack>
        <Text>{body}</Text>
        <Group justify="flex-end" gap="xs">
          <Button variant="default" onClick={onClose} data-autofocus>
            {cancel}
          </Button>
          <Button
            color="red.9"
            onClick={() => {
              onClose();
              onConfirm();
            }}
          >
            {confirm}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
