// The confirmation a removal asks for (lifting a ban, dropping a whitelist entry): cancel is the easy way out.
import { Button, Group, Modal, Stack, Text } from '@mantine/core';

export interface ConfirmRemoveProps {
  opened: boolean;
  title: string;
  body: string;
  confirm: string;
  cancel: string;
  onConfirm: () => void;
  onClose: () => void;
}

export function ConfirmRemove({ opened, title, body, confirm, cancel, onConfirm, onClose }: ConfirmRemoveProps) {
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
              onConfirm();
              onClose();
            }}
          >
            {confirm}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
