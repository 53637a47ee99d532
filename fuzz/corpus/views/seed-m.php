<?php
/**
 * Users and their repository.
 */

namespace App\Users;

use App\Db\Connection;

interface Repository
{
    public function find(int $id): ?User;
}

trait Timestamps
{
    public function touch(): void
    {
        $this->updated = time();
    }
}

enum Role: string
{
    case Admin = 'admin';
}

/** A user of the app. */
final class User
{
    use Timestamps;

    public function __construct(private int $id, private string $name)
    {
    }

    public function name(): string
    {
        return $this->name;
    }
}

function helper(array $xs): int
{
    return count($xs);
}
