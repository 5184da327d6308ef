// The form the bans and the whitelist share: an address or range (checked here, refused by the API under the field),
// the fields of its own beside it, a refusal of another kind above the button.
import type { FormEvent, ReactNode } from 'react';
import { Alert, Button, Group, Paper, Stack, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Examples } from '../../Examples';
import { ADDRESS_SAMPLES, fieldError, formError } from './errors';
import { ADMIN_BANS } from './strings';

interface Props {
  /** The form's name and its button's (`bans.add`, `whitelist.add`). */
  label: string;
  ip: string;
  onIp: (ip: string) => void;
  /** The address's own problem found before sending, if any. */
  ipProblem: string | undefined;
  /** The last add's state: pending, or refused. */
  add: { isPending: boolean; error: Error | null };
  onSubmit: () => void;
  children: ReactNode;
}

export function AddressForm({ label, ip, onIp, ipProblem, add, onSubmit, children }: Props) {
  const { t } = useTranslation(ADMIN_BANS);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSubmit();
  };
  return (
    <Paper withBorder p="sm" component="form" onSubmit={submit} noValidate aria-label={label}>
      <Stack gap="xs">
        <Group align="flex-start" wrap="wrap" gap="xs">
          <TextInput
            label={t('address')}
            description={<Examples lead={t('examples')} samples={ADDRESS_SAMPLES} />}
            value={ip}
            onChange={(event) => onIp(event.currentTarget.value)}
            error={ipProblem ?? fieldError(add.error, t)}
            dir="ltr"
            autoComplete="off"
            spellCheck={false}
            miw={200}
          />
          {children}
        </Group>
        {formError(add.error, t) && (
          <Alert color="red" role="alert">
            {formError(add.error, t)}
          </Alert>
        )}
        <Button type="submit" loading={add.isPending} w="fit-content">
          {label}
        </Button>
      </Stack>
    </Paper>
  );
}
